import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Inbox } from "@herald/domain"
import { ConflictResponse, InvalidResponse, NotFoundResponse, UnauthorizedResponse } from "./ApiError.ts"
import { cursor, Data, Page } from "./Envelope.ts"
import * as QueryInteger from "./internal/queryInteger.ts"

/** A reply: its text. */
export const Reply = Schema.Struct({
  text: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(10_000)).annotate({ description: "What to send" })
})

const pageQuery = {
  limit: Schema.optional(QueryInteger.limit),
  cursor: Schema.optional(cursor)
}

/** A page of one account's items, or of one network's accounts' (both may be given). */
const listQuery = {
  ...pageQuery,
  accountId: Schema.optional(Schema.String.annotate({ description: "Only this account's items" })),
  platform: Schema.optional(Schema.String.annotate({ description: "Only items of this network's accounts (a network key)" }))
}

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
    params: { id: Schema.String },
    payload: Reply,
    success: Data(Inbox.Comment),
    error: [NotFoundResponse, ConflictResponse]
  }).annotate(OpenApi.Summary, "Reply to a comment on the network, as the account"),
  HttpApiEndpoint.post("readComment", "/inbox/comments/:id/read", {
    params: { id: Schema.String },
    success: Data(Inbox.Comment),
    error: NotFoundResponse
  }).annotate(OpenApi.Summary, "Mark a comment read, for the whole workspace"),
  HttpApiEndpoint.get("conversations", "/inbox/conversations", {
    query: listQuery,
    success: Page(Inbox.Conversation),
    error: InvalidResponse
  }).annotate(OpenApi.Summary, "Direct-message conversations, the most recent first"),
  HttpApiEndpoint.get("messages", "/inbox/conversations/:id/messages", {
    params: { id: Schema.String },
    query: pageQuery,
    success: Page(Inbox.Message),
    error: [InvalidResponse, NotFoundResponse]
  }).annotate(OpenApi.Summary, "A conversation's messages, newest first"),
  HttpApiEndpoint.post("sendMessage", "/inbox/conversations/:id/messages", {
    params: { id: Schema.String },
    payload: Reply,
    success: Data(Inbox.Message),
    error: [NotFoundResponse, ConflictResponse]
  }).annotate(OpenApi.Summary, "Send a direct message in a conversation, as the account (message.sent)"),
  HttpApiEndpoint.post("readConversation", "/inbox/conversations/:id/read", {
    params: { id: Schema.String },
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
    params: { network: Schema.String },
    success: Schema.String.pipe(HttpApiSchema.asText()),
    error: [NotFoundResponse, InvalidResponse]
  }).annotate(OpenApi.Summary, "The network's subscription check: its challenge echoed"),
  HttpApiEndpoint.post("receive", "/networks/:network/webhook", {
    params: { network: Schema.String },
    success: Schema.Struct({ received: Schema.Int.annotate({ description: "Accounts that will be read in the next round" }) }),
    error: [NotFoundResponse, UnauthorizedResponse]
  }).annotate(OpenApi.Summary, "A network's signed notification of inbox news: the accounts it names are read at once")
).annotateMerge(OpenApi.annotations({
  title: "Network Webhooks",
  description: "Where networks announce inbox news. No key: each network's own signature is checked."
})) {}
