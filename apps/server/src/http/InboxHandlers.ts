import { Effect, Option } from "effect"
import * as HandlerGroup from "./HandlerGroup.ts"
import { ApiError, Authorization, HeraldApi, InboxApi } from "@herald/api"
import { Inbox } from "@herald/core"
import { answered } from "./ErrorRendering.ts"

const workspace = Effect.map(Effect.service(Authorization.CurrentPrincipal), (principal) => principal.workspaceId)

/** The page asked for, or `invalid` naming what is wrong. */
const pageOf = (query: { readonly limit?: string | undefined; readonly cursor?: string | undefined }) => {
  const bounds = InboxApi.parsePage(query)
  return "problem" in bounds ? Effect.fail(new ApiError.Invalid({ message: bounds.problem })) : Effect.succeed(bounds)
}

const nextCursor = (next: Option.Option<{ readonly at: Date; readonly id: string }>) =>
  InboxApi.encodeCursor(Option.getOrUndefined(next))

export const layer = (api: HeraldApi.HeraldApi) => HandlerGroup.group(
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
          answered
        ))
      .handle("readConversation", ({ params }) =>
        Effect.flatMap(workspace, (workspaceId) => inbox.markConversationRead(workspaceId, params.id)).pipe(
          Effect.map((data) => ({ data })),
          answered
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
            answered
          )
          return { data: page.items, nextCursor: nextCursor(page.next) }
        }))
      .handle("replyToComment", ({ params, payload }) =>
        Effect.flatMap(workspace, (workspaceId) => inbox.replyToComment(workspaceId, params.id, payload.text)).pipe(
          Effect.map((data) => ({ data })),
          answered
        ))
      .handle("sendMessage", ({ params, payload }) =>
        Effect.flatMap(workspace, (workspaceId) => inbox.sendMessage(workspaceId, params.id, payload.text)).pipe(
          Effect.map((data) => ({ data })),
          answered
        ))
  })
)
