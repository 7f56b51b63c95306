import type { Adapter } from "@herald/adapter-kit"
import { Option, Schema } from "effect"

// The Page's inbox as pure data: the polling cursor and the Graph nodes mapped onto Herald's items.
//
// The cursor is time-based because the Graph API offers nothing else that spans several posts and
// conversations: comment paging cursors belong to one post's edge, and the conversations edge has no
// time-based pagination (https://developers.facebook.com/docs/graph-api/reference/page/conversations).
// Every comment and message carries `created_time`, to the second; the cursor keeps the newest second
// seen and the ids already returned within that second, so two items of the same second are neither lost
// (strictly after) nor returned twice (at or after).

/** The newest `created_time` seen (epoch milliseconds, whole seconds) and the ids returned at that time. */
export interface Cursor {
  readonly at: number
  readonly seen: ReadonlyArray<string>
}

const CursorJson = Schema.fromJsonString(Schema.Struct({ at: Schema.Finite, seen: Schema.Array(Schema.String) }))

/** Before anything: every item is newer. */
export const start: Cursor = { at: 0, seen: [] }

export const encodeCursor = (cursor: Cursor): string =>
  Buffer.from(JSON.stringify({ at: cursor.at, seen: cursor.seen })).toString("base64url")

/** A cursor this adapter wrote; none for anything else (the core then starts afresh, as with no cursor). */
export const decodeCursor = (value: string): Option.Option<Cursor> =>
  Schema.decodeUnknownOption(CursorJson)(Buffer.from(value, "base64url").toString("utf8"))

/** Graph times: ISO 8601 with `+0000` (`2024-05-01T10:00:00+0000`), or Unix seconds in some guides. */
export const GraphTime = Schema.Union([Schema.String, Schema.Finite])

export const millisOf = (time: typeof GraphTime.Type): number =>
  typeof time === "number" ? time * 1000 : Date.parse(time)

export const isNewer = (cursor: Cursor, id: string, at: number): boolean =>
  at > cursor.at || (at === cursor.at && !cursor.seen.includes(id))

/** The cursor after `items` (all newer than `cursor`): the newest second, and what was returned in it. */
export const advance = (cursor: Cursor, items: ReadonlyArray<{ readonly id: string; readonly at: number }>): Cursor => {
  const at = items.reduce((newest, item) => Math.max(newest, item.at), cursor.at)
  const inNewest = items.filter((item) => item.at === at).map((item) => item.id)
  return { at, seen: at === cursor.at ? [...cursor.seen, ...inNewest] : inNewest }
}

/** `from` on comments and messages: a Page-scoped id and a name; Facebook has no usernames to give. */
const From = Schema.Struct({ id: Schema.String, name: Schema.optionalKey(Schema.String) })

/**
 * https://developers.facebook.com/docs/graph-api/reference/object/comments with `filter=stream`: replies
 * come in the same flat list, with `parent`. `from` is left out when the app may not see the commenter.
 */
export const Comment = Schema.Struct({
  id: Schema.String,
  message: Schema.optionalKey(Schema.String),
  created_time: GraphTime,
  from: Schema.optionalKey(From),
  parent: Schema.optionalKey(Schema.Struct({ id: Schema.String })),
  permalink_url: Schema.optionalKey(Schema.String)
})
export type Comment = typeof Comment.Type

/** https://developers.facebook.com/docs/messenger-platform/conversations: a message of a conversation. */
export const Message = Schema.Struct({
  id: Schema.String,
  message: Schema.optionalKey(Schema.String),
  created_time: GraphTime,
  from: Schema.optionalKey(From),
  attachments: Schema.optionalKey(Schema.Struct({ data: Schema.Array(Schema.Unknown) }))
})
export type Message = typeof Message.Type

const person = (from: typeof From.Type | undefined): Adapter.Person => ({
  id: from?.id ?? "",
  username: from?.name ?? from?.id ?? "Facebook user",
  name: from?.name ?? null
})

const iso = (millis: number) => new Date(millis).toISOString()

export const toComment = (postId: string, comment: Comment): Adapter.InboxComment => ({
  id: comment.id,
  postId,
  replyTo: comment.parent?.id ?? null,
  author: person(comment.from),
  text: comment.message ?? "",
  permalink: comment.permalink_url ?? null,
  createdAt: iso(millisOf(comment.created_time))
})

export const toMessage = (pageId: string, conversationId: string, message: Message): Adapter.InboxMessage => ({
  id: message.id,
  conversationId,
  from: person(message.from),
  text: message.message ?? "",
  attachments: message.attachments?.data.length ?? 0,
  outgoing: message.from?.id === pageId,
  createdAt: iso(millisOf(message.created_time))
})
