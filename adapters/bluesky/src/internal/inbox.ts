import type { Adapter } from "@herald/adapter-kit"
import { Option, Schema } from "effect"
import type { Notification } from "../BlueskyClient.ts"
import { permalink } from "./request.ts"

/**
 * Bluesky's notifications as inbox comments. `app.bsky.notification.listNotifications` lists newest first,
 * and its own cursor pages backwards in time, not forwards (https://docs.bsky.app/docs/api/app-bsky-notification-list-notifications),
 * so Herald's cursor is the newest `indexedAt` it has seen (epoch milliseconds) with the URIs indexed at that
 * very instant: a later notification at the same instant is still new, one returned already is not. Only
 * `reply` and `mention` notifications are comments; likes, reposts, follows and quotes are not.
 */

export interface Cursor {
  readonly at: number
  readonly uris: ReadonlyArray<string>
}

export const start: Cursor = { at: 0, uris: [] }

export const encodeCursor = (cursor: Cursor): string => Buffer.from(JSON.stringify(cursor)).toString("base64url")

const CursorJson = Schema.fromJsonString(Schema.Struct({ at: Schema.Number, uris: Schema.Array(Schema.String) }))

/** Undefined for a cursor this adapter did not write: the fetch then starts from now, as for a new account. */
export const decodeCursor = (value: string): Cursor | undefined =>
  Option.getOrUndefined(Schema.decodeUnknownOption(CursorJson)(Buffer.from(value, "base64url").toString("utf8")))

export const inboxReasons: ReadonlySet<string> = new Set(["reply", "mention"])

const timeOf = (notification: Notification) => Date.parse(notification.indexedAt)

export const isNew = (cursor: Cursor, notification: Notification): boolean => {
  const at = timeOf(notification)
  return at > cursor.at || (at === cursor.at && !cursor.uris.includes(notification.uri))
}

/** Whether a listing read newest first has gone past the cursor: nothing after this one is new. */
export const isOlder = (cursor: Cursor, notification: Notification): boolean => timeOf(notification) < cursor.at

/** The cursor after `seen`: their newest instant and the URIs indexed at it. */
export const advance = (cursor: Cursor, seen: ReadonlyArray<Notification>): Cursor => {
  let next = cursor
  for (const notification of seen) {
    const at = timeOf(notification)
    if (Number.isNaN(at) || at < next.at) continue
    next = at > next.at ? { at, uris: [notification.uri] } : { at, uris: [...next.uris, notification.uri] }
  }
  return next
}

/**
 * A reply or mention as a comment: on the thread's root post (a mention outside any thread is its own post),
 * answering its parent when that is not the root. Authors are known by DID and handle.
 */
export const toComment = (webBaseUrl: string, notification: Notification): Adapter.InboxComment => {
  const reply = notification.record.reply
  const root = reply?.root.uri ?? notification.uri
  const parent = reply?.parent.uri
  return {
    id: notification.uri,
    postId: root,
    replyTo: parent === undefined || parent === root ? null : parent,
    author: {
      id: notification.author.did,
      username: notification.author.handle,
      name: notification.author.displayName ?? null
    },
    text: notification.record.text ?? "",
    permalink: permalink(webBaseUrl, notification.author.handle, notification.uri),
    // `createdAt` is the author's claim and may be anything; `indexedAt` is the app view's.
    createdAt: new Date(
      Number.isNaN(Date.parse(notification.record.createdAt ?? "")) ? timeOf(notification) : Date.parse(notification.record.createdAt!)
    ).toISOString()
  }
}
