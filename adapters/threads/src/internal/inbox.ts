import type { Adapter } from "@herald/adapter-kit"
import type { Reply } from "../ThreadsClient.ts"

/**
 * The inbox's pure parts: the cursor, which replies are new, and a Threads reply as an inbox comment.
 *
 * Threads has no "replies since" parameter: `GET /{media-id}/conversation` pages with opaque before/after
 * cursors that belong to one post's listing, and Threads offers no DMs. What every reply carries is its
 * `timestamp`, to the second (https://developers.facebook.com/documentation/threads/retrieve-and-manage-replies/replies-and-conversations).
 * So the cursor is the newest timestamp Herald has seen, in epoch seconds, with the ids of the replies made
 * in that very second: a later reply in the same second is still new, and one already returned is not
 * returned again. Listings are newest first, so reading a post stops at the first reply older than the cursor.
 */
export interface Cursor {
  readonly seconds: number
  readonly ids: ReadonlyArray<string>
}

/** `<epoch seconds>:<id>,<id>`; the first cursor of an account with no replies at all is `0:`. */
export const encodeCursor = (cursor: Cursor): string => `${cursor.seconds}:${cursor.ids.join(",")}`

/** Undefined for a cursor this adapter did not write: the fetch then starts from now, as for a new account. */
export const decodeCursor = (value: string): Cursor | undefined => {
  const match = /^(\d+):([\w,]*)$/.exec(value)
  if (match === null) return undefined
  return { seconds: Number(match[1]), ids: match[2] === "" ? [] : match[2]!.split(",") }
}

/** Threads writes `2024-06-18T19:17:20+0000`; NaN when unreadable. */
const secondsOf = (reply: Reply): number => Math.floor(Date.parse(reply.timestamp) / 1000)

export const isNew = (cursor: Cursor, reply: Reply): boolean => {
  const seconds = secondsOf(reply)
  return seconds > cursor.seconds || (seconds === cursor.seconds && !cursor.ids.includes(reply.id))
}

/** Whether a listing read newest first has gone past the cursor: nothing after this reply is new. */
export const isOlder = (cursor: Cursor, reply: Reply): boolean => secondsOf(reply) < cursor.seconds

/** The cursor after `replies` (the new ones, or for a first fetch every one read): their newest second. */
export const advance = (cursor: Cursor, replies: ReadonlyArray<Reply>): Cursor => {
  let next = cursor
  for (const reply of replies) {
    const seconds = secondsOf(reply)
    if (Number.isNaN(seconds) || seconds < next.seconds) continue
    next = seconds > next.seconds ? { seconds, ids: [reply.id] } : { seconds, ids: [...next.ids, reply.id] }
  }
  return next
}

/** Before the first fetch: nothing seen, so the first fetch's cursor is the newest reply there is. */
export const start: Cursor = { seconds: 0, ids: [] }

/**
 * A reply as an inbox comment. Threads gives no user id for the people who reply, only the `username` of
 * public profiles, so that is their id; the account's own replies (`is_reply_owned_by_me`) carry its id.
 * A reply whose parent is the post itself is a top-level comment.
 */
export const toComment = (account: Adapter.Account, postId: string, reply: Reply): Adapter.InboxComment => {
  const root = reply.root_post?.id ?? postId
  const parent = reply.replied_to?.id
  const author: Adapter.Person = reply.is_reply_owned_by_me === true
    ? { id: account.networkAccountId, username: account.username, name: null }
    : { id: reply.username ?? `private:${reply.id}`, username: reply.username ?? "", name: null }
  return {
    id: reply.id,
    postId: root,
    replyTo: parent === undefined || parent === root ? null : parent,
    author,
    text: reply.text ?? "",
    permalink: reply.permalink ?? null,
    createdAt: new Date(Date.parse(reply.timestamp)).toISOString()
  }
}

/**
 * What one inbox fetch reads: the replies to the account's 10 newest posts (1 + 10 calls a poll, well inside
 * Meta's per-profile call budget at one poll a minute; replies to older posts are not read), in pages of 50,
 * at most 4 pages a post. A post that got more than 200 replies between two polls loses the oldest of them.
 */
export const inboxBounds = { posts: 10, pageSize: 50, pagesPerPost: 4 } as const
