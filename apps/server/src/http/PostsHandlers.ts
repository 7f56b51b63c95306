import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { ApiError, Authorization, HeraldApi, ListQuery, PostsApi } from "@herald/api"
import { Posts } from "@herald/core"
import { Post } from "@herald/domain"
import { domainError } from "./ErrorRendering.ts"

/** Who acts: the key's member and role (null for a workspace key). */
const actor = Effect.map(Effect.service(Authorization.CurrentPrincipal), (principal): Posts.Actor => ({
  memberId: principal.memberId,
  role: principal.role
}))

export const layer = (api: HeraldApi.HeraldApi) => HttpApiBuilder.group(
  api,
  "posts",
  Effect.fnUntraced(function*(handlers) {
    const posts = yield* Posts.Posts
    const workspace = Effect.map(Effect.service(Authorization.CurrentPrincipal), (principal) => principal.workspaceId)
    return handlers
      .handle("create", ({ payload }) =>
        Effect.flatMap(Effect.all([workspace, actor]), ([workspaceId, by]) => posts.create(workspaceId, payload, by)).pipe(
          Effect.map((data) => ({ data })),
          Effect.catchTag("PostInvalid", domainError),
          Effect.catchTag("SqlError", Effect.die)
        ))
      .handle("validate", ({ payload }) =>
        Effect.flatMap(workspace, (workspaceId) => posts.validate(workspaceId, payload)).pipe(
          Effect.map((data) => ({ data })),
          Effect.catchTag("SqlError", Effect.die)
        ))
      .handle("get", ({ params }) =>
        Effect.flatMap(workspace, (workspaceId) => posts.get(workspaceId, params.id)).pipe(
          Effect.map((data) => ({ data })),
          Effect.catchTag("PostNotFound", domainError),
          Effect.catchTag("SqlError", Effect.die)
        ))
      .handle("events", ({ params }) =>
        Effect.flatMap(workspace, (workspaceId) => posts.events(workspaceId, params.id)).pipe(
          Effect.map((events) => ({ data: events.map((event) => new PostsApi.PostEvent(event)) })),
          Effect.catchTag("PostNotFound", domainError),
          Effect.catchTag("SqlError", Effect.die)
        ))
      .handle("list", ({ query }) =>
        Effect.gen(function*() {
          const workspaceId = yield* workspace
          const parsed = ListQuery.parseListQuery(query, Post.PostStatus.literals)
          if ("problems" in parsed) {
            return yield* new ApiError.Invalid({
              message: parsed.problems.map((problem) => problem.message).join("; "),
              details: parsed.problems
            })
          }
          const page = yield* Effect.orDie(posts.list(workspaceId, {
            ...parsed,
            ...(query.accountId === undefined ? {} : { accountId: query.accountId })
          }))
          return { data: page.posts, nextCursor: Option.getOrNull(Option.map(page.next, ListQuery.encodeCursor)) }
        }))
      .handle("update", ({ params, payload }) =>
        Effect.flatMap(Effect.all([workspace, actor]), ([workspaceId, by]) =>
          posts.update(workspaceId, params.id, payload, undefined, by)).pipe(
          Effect.map((data) => ({ data })),
          Effect.catchTag("PostInvalid", domainError),
          Effect.catchTag("PostNotFound", domainError),
          Effect.catchTag("PostConflict", domainError),
          Effect.catchTag("SqlError", Effect.die)
        ))
      .handle("retry", ({ params }) =>
        Effect.flatMap(workspace, (workspaceId) => posts.retry(workspaceId, params.id)).pipe(
          Effect.map((data) => ({ data })),
          Effect.catchTag("PostNotFound", domainError),
          Effect.catchTag("PostConflict", domainError),
          Effect.catchTag("SqlError", Effect.die)
        ))
      .handle("submit", ({ params }) =>
        Effect.flatMap(Effect.all([workspace, actor]), ([workspaceId, by]) => posts.submit(workspaceId, params.id, by)).pipe(
          Effect.map((data) => ({ data })),
          Effect.catchTag("PostInvalid", domainError),
          Effect.catchTag("PostNotFound", domainError),
          Effect.catchTag("PostConflict", domainError),
          Effect.catchTag("SqlError", Effect.die)
        ))
      .handle("approve", ({ params, payload }) =>
        Effect.flatMap(Effect.all([workspace, actor]), ([workspaceId, by]) =>
          posts.approve(workspaceId, params.id, by, payload.note)).pipe(
            Effect.map((data) => ({ data })),
            Effect.catchTag("PostNotFound", domainError),
            Effect.catchTag("PostConflict", domainError),
            Effect.catchTag("PostForbidden", domainError),
            Effect.catchTag("SqlError", Effect.die)
          ))
      .handle("requestChanges", ({ params, payload }) =>
        Effect.flatMap(Effect.all([workspace, actor]), ([workspaceId, by]) =>
          posts.requestChanges(workspaceId, params.id, by, payload.note)).pipe(
            Effect.map((data) => ({ data })),
            Effect.catchTag("PostNotFound", domainError),
            Effect.catchTag("PostConflict", domainError),
            Effect.catchTag("PostForbidden", domainError),
            Effect.catchTag("SqlError", Effect.die)
          ))
      .handle("remove", ({ params }) =>
        Effect.flatMap(workspace, (workspaceId) => posts.remove(workspaceId, params.id)).pipe(
          Effect.as({ data: new PostsApi.Deleted({ id: params.id, deleted: true }) }),
          Effect.catchTag("PostNotFound", domainError),
          Effect.catchTag("PostConflict", domainError),
          Effect.catchTag("SqlError", Effect.die)
        ))
  })
)
