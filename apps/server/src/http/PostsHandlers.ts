import { Effect, Option, Schema } from "effect"
import { HttpServerResponse } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { ApiError, Authorization, HeraldApi, ListQuery, PostsApi } from "@herald/api"
import { Networks, Posts, PostShape } from "@herald/core"
import { Post } from "@herald/domain"
import { answered } from "./ErrorRendering.ts"

/**
 * The list page's body checked once, in its wire form: the posts come shown (`Posts.listShown`), and the
 * post schema without its transformations checks every field and puts them in the document's order. The
 * endpoint's own encoding would build each post again and check it twice more. The body and its headers are
 * the ones that encoding gives (the endpoint's schema stays the contract, and the OpenAPI document with it).
 *
 * The same posts are listed again and again (a calendar, a queue view polled), and what a post reads as is a
 * pure function of its stored form. So a post's checked JSON is kept under that stored form, as the page's
 * query gives it (one text a row): a post stored exactly as before is answered from its checked JSON without
 * its row being parsed, shown or checked, and one that changed in anything (its text, a target, a media's
 * alt) is a new key, shown and checked afresh. Bounded, oldest out.
 */
const pageResponder = (postSchema: PostsApi.Schemas["post"]) => {
  const check = Schema.decodeUnknownSync(Schema.toEncoded(postSchema))
  const checked = new Map<string, string>()
  const checkedJson = (post: Posts.ShownPost) => {
    const known = checked.get(post.key)
    if (known !== undefined) return known
    const json = JSON.stringify(check(post.show()))
    if (checked.size >= checkedLimit) checked.delete(checked.keys().next().value!)
    checked.set(post.key, json)
    return json
  }
  // `Envelope.Page`'s fields in its order; the cursor is a string this process made, or null.
  return (page: { readonly data: ReadonlyArray<Posts.ShownPost>; readonly nextCursor: string | null }) =>
    Effect.sync(() =>
      HttpServerResponse.text(
        `{"data":[${page.data.map(checkedJson).join(",")}],"nextCursor":${JSON.stringify(page.nextCursor)}}`,
        { status: 200, contentType: "application/json" }
      )
    )
}
/** About 2,000 posts' JSON twice over: a few megabytes at most. */
const checkedLimit = 2_000

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
    const networks = yield* Networks.Networks
    const respondPage = pageResponder(PostsApi.schemas(PostShape.make(networks.all)).post)
    const workspace = Effect.map(Effect.service(Authorization.CurrentPrincipal), (principal) => principal.workspaceId)
    return handlers
      .handle("create", ({ payload }) =>
        Effect.flatMap(Effect.all([workspace, actor]), ([workspaceId, by]) => posts.create(workspaceId, payload, by)).pipe(
          Effect.map((data) => ({ data })),
          answered
        ))
      .handle("validate", ({ payload }) =>
        Effect.flatMap(workspace, (workspaceId) => posts.validate(workspaceId, payload)).pipe(
          Effect.map((data) => ({ data }))
        ))
      .handle("get", ({ params }) =>
        Effect.flatMap(workspace, (workspaceId) => posts.get(workspaceId, params.id)).pipe(
          Effect.map((data) => ({ data })),
          answered
        ))
      .handle("events", ({ params }) =>
        Effect.flatMap(workspace, (workspaceId) => posts.events(workspaceId, params.id)).pipe(
          Effect.map((events) => ({ data: events.map((event) => new PostsApi.PostEvent(event)) })),
          answered
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
          const page = yield* Effect.orDie(posts.listShown(workspaceId, {
            ...parsed,
            ...(query.accountId === undefined ? {} : { accountId: query.accountId })
          }))
          return yield* respondPage({ data: page.posts, nextCursor: Option.getOrNull(Option.map(page.next, ListQuery.encodeCursor)) })
        }))
      .handle("update", ({ params, payload }) =>
        Effect.flatMap(Effect.all([workspace, actor]), ([workspaceId, by]) =>
          posts.update(workspaceId, params.id, payload, undefined, by)).pipe(
          Effect.map((data) => ({ data })),
          answered
        ))
      .handle("retry", ({ params }) =>
        Effect.flatMap(workspace, (workspaceId) => posts.retry(workspaceId, params.id)).pipe(
          Effect.map((data) => ({ data })),
          answered
        ))
      .handle("submit", ({ params }) =>
        Effect.flatMap(Effect.all([workspace, actor]), ([workspaceId, by]) => posts.submit(workspaceId, params.id, by)).pipe(
          Effect.map((data) => ({ data })),
          answered
        ))
      .handle("approve", ({ params, payload }) =>
        Effect.flatMap(Effect.all([workspace, actor]), ([workspaceId, by]) =>
          posts.approve(workspaceId, params.id, by, payload.note)).pipe(
            Effect.map((data) => ({ data })),
            answered
          ))
      .handle("requestChanges", ({ params, payload }) =>
        Effect.flatMap(Effect.all([workspace, actor]), ([workspaceId, by]) =>
          posts.requestChanges(workspaceId, params.id, by, payload.note)).pipe(
            Effect.map((data) => ({ data })),
            answered
          ))
      .handle("remove", ({ params }) =>
        Effect.flatMap(workspace, (workspaceId) => posts.remove(workspaceId, params.id)).pipe(
          Effect.as({ data: new PostsApi.Deleted({ id: params.id, deleted: true }) }),
          answered
        ))
  })
)
