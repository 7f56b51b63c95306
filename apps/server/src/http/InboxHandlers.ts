import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { ApiError, Authorization, HeraldApi } from "@herald/api"
import { Inbox } from "@herald/core"
import { domainError } from "./ErrorRendering.ts"

const workspace = Effect.map(Effect.service(Authorization.CurrentPrincipal), (principal) => principal.workspaceId)

/** `limit` (1 to 100, 20 by default) and `cursor` (a previous page's `nextCursor`). */
const pageOf = (query: { readonly limit?: string | undefined; readonly cursor?: string | undefined }) => {
  const limit = query.limit === undefined ? 20 : /^\d+$/.test(query.limit) ? Number(query.limit) : Number.NaN
  if (!(limit >= 1 && limit <= 100)) {
    return Effect.fail(new ApiError.Invalid({ message: `limit "${query.limit}" must be a whole number from 1 to 100` }))
  }
  if (query.cursor === undefined) return Effect.succeed({ limit })
  const [at, id] = Buffer.from(query.cursor, "base64url").toString("utf8").split("|")
  const when = new Date(at ?? "")
  if (id === undefined || Number.isNaN(when.getTime())) {
    return Effect.fail(new ApiError.Invalid({ message: "cursor is not one this API gave out" }))
  }
  return Effect.succeed({ limit, cursor: { at: when, id } })
}

const nextCursor = (next: Option.Option<{ readonly at: Date; readonly id: string }>) =>
  Option.getOrNull(Option.map(next, (value) => Buffer.from(`${value.at.toISOString()}|${value.id}`).toString("base64url")))

export const layer = (api: HeraldApi.HeraldApi) => HttpApiBuilder.group(
  api,
  "inbox",
  Effect.fnUntraced(function*(handlers) {
    const inbox = yield* Inbox.Inbox
    return handlers
      .handle("unread", () =>
        Effect.flatMap(workspace, (workspaceId) => inbox.unread(workspaceId)).pipe(Effect.map((data) => ({ data })), Effect.orDie))
      .handle("readComment", ({ params }) =>
        Effect.flatMap(workspace, (workspaceId) => inbox.markCommentRead(workspaceId, params.id)).pipe(
          Effect.map((data) => ({ data })),
          Effect.catchTag("InboxNotFound", domainError),
          Effect.catchTag("SqlError", Effect.die)
        ))
      .handle("readConversation", ({ params }) =>
        Effect.flatMap(workspace, (workspaceId) => inbox.markConversationRead(workspaceId, params.id)).pipe(
          Effect.map((data) => ({ data })),
          Effect.catchTag("InboxNotFound", domainError),
          Effect.catchTag("SqlError", Effect.die)
        ))
      .handle("comments", ({ query }) =>
        Effect.gen(function*() {
          const page = yield* inbox.comments(yield* workspace, yield* pageOf(query), query).pipe(Effect.orDie)
          return { data: page.items, nextCursor: nextCursor(page.next) }
        }))
      .handle("conversations", ({ query }) =>
        Effect.gen(function*() {
          const page = yield* inbox.conversations(yield* workspace, yield* pageOf(query), query).pipe(Effect.orDie)
          return { data: page.items, nextCursor: nextCursor(page.next) }
        }))
      .handle("messages", ({ params, query }) =>
        Effect.gen(function*() {
          const page = yield* inbox.messages(yield* workspace, params.id, yield* pageOf(query)).pipe(
            Effect.catchTag("InboxNotFound", domainError),
            Effect.catchTag("SqlError", Effect.die)
          )
          return { data: page.items, nextCursor: nextCursor(page.next) }
        }))
      .handle("replyToComment", ({ params, payload }) =>
        Effect.flatMap(workspace, (workspaceId) => inbox.replyToComment(workspaceId, params.id, payload.text)).pipe(
          Effect.map((data) => ({ data })),
          Effect.catchTag("InboxNotFound", domainError),
          Effect.catchTag("InboxSendFailed", domainError),
          Effect.catchTag("SqlError", Effect.die)
        ))
      .handle("sendMessage", ({ params, payload }) =>
        Effect.flatMap(workspace, (workspaceId) => inbox.sendMessage(workspaceId, params.id, payload.text)).pipe(
          Effect.map((data) => ({ data })),
          Effect.catchTag("InboxNotFound", domainError),
          Effect.catchTag("InboxSendFailed", domainError),
          Effect.catchTag("SqlError", Effect.die)
        ))
  })
)
