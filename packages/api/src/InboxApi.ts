import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Bounded, Inbox } from "@herald/domain"
import { ConflictResponse, InvalidResponse, NotFoundResponse, UnauthorizedResponse } from "./ApiError.ts"
import { cursor, Data, Page } from "./Envelope.ts"
import * as QueryInteger from "./internal/queryInteger.ts"

/** A reply: its text. */
export const Reply = Schema.Struct({
  text: Bounded.Note.check(Schema.isMinLength(1)).annotate({ description: "What to send" })
})

const pageQuery = {
  limit: Schema.optional(QueryInteger.limit),
  cursor: Schema.optional(cursor)
}

/** A page of one account's items, or of one network's accounts' (both may be given). */
const listQuery = {
  ...pageQuery,
  accountId: Schema.optional(Bounded.Id.annotate({ description: "Only this account's items" })),
  platform: Schema.optional(Bounded.Word.annotate({ description: "Only items of this network's accounts (a network key)" }))
}

/** A page's bounds as the inbox's services take them: `limit` items before `cursor` (newest first). */
export interface PageBounds {
  readonly limit: number
  readonly cursor?: { readonly at: Date; readonly id: string }
}

/**
 * `limit` (1 to 100, 20 by default) and `cursor` (a previous page's `nextCursor`), as the REST API and MCP's
 * `list_inbox` read them; `problem` says what is wrong.
 */
export const parsePage = (query: {
  readonly limit?: string | undefined
  readonly cursor?: string | undefined
}): PageBounds | { readonly problem: string } => {
  const limit = query.limit === undefined ? 20 : /^\d+$/.test(query.limit) ? Number(query.limit) : Number.NaN
  if (!(limit >= 1 && limit <= 100)) return { problem: `limit "${query.limit}" must be a whole number from 1 to 100` }
  if (query.cursor === undefined) return { limit }
  const [at, id] = Buffer.from(query.cursor, "base64url").toString("utf8").split("|")
  const when = new Date(at ?? "")
  if (id === undefined || Number.isNaN(when.getTime())) return { problem: "cursor is not one this API gave out" }
  return { limit, cursor: { at: when, id } }
}

/** The `nextCursor` of a page that ends at `next`; null on the last page. */
export const encodeCursor = (next: { readonly at: Date; readonly id: string } | undefined) =>
  next === undefined ? null : Buffer.from(`${next.at.toISOString()}|${next.id}`).toString("base64url")

export class InboxApi extends HttpApiGroup.make("inbox").add(
  HttpApiEndpoint.get("unread", "/inbox/unread", {
    success: Data(Inbox.Unread)
  }).annotate(OpenApi.Summary, "Unread comments and conversations, in all and per account"),
  HttpApiEndpoint.get("comments", "/inbox/comments", {
    query: listQuery,
    success: Page(Inbox.Comment),
    error: InvalidResponse
  }).annotate(OpenApi.Summary, "Comments on the accounts' posts, newest first"),
  HttpApiEndpoint.post("replyToComment", "/inbox/comments/:id/reply", {
    params: { id: Bounded.Id },
    payload: Reply,
    success: Data(Inbox.Comment),
    error: [NotFoundResponse, ConflictResponse]
  }).annotate(OpenApi.Summary, "Reply to a comment on the network, as the account"),
  HttpApiEndpoint.post("readComment", "/inbox/comments/:id/read", {
    params: { id: Bounded.Id },
    success: Data(Inbox.Comment),
    error: NotFoundResponse
  }).annotate(OpenApi.Summary, "Mark a comment read, for the whole workspace"),
  HttpApiEndpoint.get("conversations", "/inbox/conversations", {
    query: listQuery,
    success: Page(Inbox.Conversation),
    error: InvalidResponse
  }).annotate(OpenApi.Summary, "Direct-message conversations, the most recent first"),
  HttpApiEndpoint.get("messages", "/inbox/conversations/:id/messages", {
    params: { id: Bounded.Id },
    query: pageQuery,
    success: Page(Inbox.Message),
    error: [InvalidResponse, NotFoundResponse]
  }).annotate(OpenApi.Summary, "A conversation's messages, newest first"),
  HttpApiEndpoint.post("sendMessage", "/inbox/conversations/:id/messages", {
    params: { id: Bounded.Id },
    payload: Reply,
    success: Data(Inbox.Message),
    error: [NotFoundResponse, ConflictResponse]
  }).annotate(OpenApi.Summary, "Send a direct message in a conversation, as the account (message.sent)"),
  HttpApiEndpoint.post("readConversation", "/inbox/conversations/:id/read", {
    params: { id: Bounded.Id },
    success: Data(Inbox.Conversation),
    error: NotFoundResponse
  }).annotate(OpenApi.Summary, "Mark every message received so far in a conversation read, for the whole workspace")
).annotateMerge(OpenApi.annotations({
  title: "Inbox",
  description: "Comments on the accounts' posts and direct messages, read from the networks and answered as the account."
})) {}

/**
 * `/networks/:network/webhook`: where a network announces inbox news itself. No key: the adapter checks the
 * network's own signature over the raw body (the body is read as bytes, whatever its type).
 */
export class NetworkWebhooksApi extends HttpApiGroup.make("networkWebhooks", { topLevel: true }).add(
  HttpApiEndpoint.get("handshake", "/networks/:network/webhook", {
    params: { network: Bounded.Word },
    success: Schema.String.pipe(HttpApiSchema.asText()),
    error: [NotFoundResponse, InvalidResponse]
  }).annotate(OpenApi.Summary, "The network's subscription check: its challenge echoed"),
  HttpApiEndpoint.post("receive", "/networks/:network/webhook", {
    params: { network: Bounded.Word },
    success: Schema.Struct({ received: Schema.Int.annotate({ description: "Accounts that will be read in the next round" }) }),
    error: [NotFoundResponse, UnauthorizedResponse]
  }).annotate(OpenApi.Summary, "A network's signed notification of inbox news: the accounts it names are read at once")
).annotateMerge(OpenApi.annotations({
  title: "Network Webhooks",
  description: "Where networks announce inbox news. No key: each network's own signature is checked."
})) {}
