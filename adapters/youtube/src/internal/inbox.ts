import { Option, Schema } from "effect"
import type { Adapter } from "@herald/adapter-kit"
import type { Comment, CommentThread } from "../YouTubeClient.ts"
import { permalink } from "./request.ts"

// The YouTube inbox's cursor, with no I/O. The Data API has no "since" parameter, no webhook for comments
// and page tokens that only page one listing: `commentThreads.list` with `order=time` is the newest
// threads first, and what is new has to be picked out by `publishedAt` (whole seconds).
// https://developers.google.com/youtube/v3/docs/commentThreads/list
//
// The cursor is a time and the ids already handed out at or after it. Items published at or after `since`
// whose id is not in `seen` are news. `since` trails the newest comment seen by `settleMs`, so a comment
// YouTube lists a little later than a newer one (same second, or indexing delay) is still picked up, and
// `seen` keeps each id from coming back twice. `replies` remembers the reply count of threads whose replies
// did not all fit in the thread's `replies` part, so `comments.list` is only asked again when it grew.

/** How far behind the newest comment seen the cursor stays (see above). */
export const settleMs = 5 * 60_000
/** Ids kept in a cursor at most; past it `since` moves up so that nothing dropped can come back. */
export const maxSeen = 500
/** Thread reply counts kept in a cursor at most. */
const maxReplyCounts = 200

const Cursor = Schema.Struct({
  /** Epoch milliseconds: comments published before it are never news. */
  since: Schema.Number,
  /** Comment id to its `publishedAt` (epoch milliseconds), for the ids already handed out. */
  seen: Schema.Record(Schema.String, Schema.Number),
  /** Thread id to its `totalReplyCount` when its replies were last read in full. */
  replies: Schema.Record(Schema.String, Schema.Number)
})
export type Cursor = typeof Cursor.Type

const CursorJson = Schema.fromJsonString(Cursor)

/** A channel with no comments yet: everything that comes is news. */
export const empty: Cursor = { since: 0, seen: {}, replies: {} }

export const encode = (cursor: Cursor): string => Schema.encodeSync(CursorJson)(cursor)

export const decode = (cursor: string): Option.Option<Cursor> => Schema.decodeUnknownOption(CursorJson)(cursor)

/** A comment as the inbox shows it, with its time for the cursor. */
export interface Listed {
  readonly comment: Adapter.InboxComment
  readonly publishedMs: number
}

/**
 * A YouTube comment in Herald's terms. The author's channel id is what marks the account's own replies;
 * `authorDisplayName` is the author's handle (`@name`). The link is the watch page with `lc=`, which
 * YouTube's site opens with that comment highlighted.
 */
export const toListed = (webBaseUrl: string, videoId: string, comment: Comment): Listed => {
  const { snippet } = comment
  const handle = snippet.authorDisplayName ?? ""
  return {
    publishedMs: Date.parse(snippet.publishedAt),
    comment: {
      id: comment.id,
      postId: videoId,
      replyTo: snippet.parentId ?? null,
      author: {
        id: snippet.authorChannelId?.value ?? handle,
        username: handle.replace(/^@/, ""),
        name: null
      },
      text: snippet.textDisplay ?? snippet.textOriginal ?? "",
      permalink: `${permalink(webBaseUrl, videoId)}&lc=${encodeURIComponent(comment.id)}`,
      createdAt: snippet.publishedAt
    }
  }
}

/** The thread's top-level comment and the replies it carries; none for a thread about no video. */
export const listThread = (webBaseUrl: string, thread: CommentThread): ReadonlyArray<Listed> => {
  const videoId = thread.snippet.videoId
  if (videoId === undefined) return []
  return [thread.snippet.topLevelComment, ...(thread.replies?.comments ?? [])].map((comment) =>
    toListed(webBaseUrl, videoId, comment)
  )
}

/** Whether the thread shows nothing at or after `since`: under `order=time`, the threads after it are older. */
export const isOld = (webBaseUrl: string, thread: CommentThread, since: number): boolean =>
  listThread(webBaseUrl, thread).every((listed) => listed.publishedMs < since)

/** The thread's reply count when the `replies` part does not carry them all. */
const hiddenReplies = (thread: CommentThread): number | undefined => {
  const total = thread.snippet.totalReplyCount ?? 0
  return total > (thread.replies?.comments?.length ?? 0) ? total : undefined
}

/** Threads whose replies must be read with `comments.list`: more than they carry, and more than last time. */
export const needReplies = (cursor: Cursor, threads: ReadonlyArray<CommentThread>): ReadonlyArray<CommentThread> =>
  threads.filter((thread) => {
    const total = hiddenReplies(thread)
    return total !== undefined && thread.snippet.videoId !== undefined && cursor.replies[thread.id] !== total
  })

/**
 * What is news among the comments listed, oldest first (those of the same second in the order listed),
 * and the cursor that leaves them out from now on.
 * `complete` are the threads whose replies were all read (or need no reading) this time.
 */
export const advance = (
  cursor: Cursor,
  listed: ReadonlyArray<Listed>,
  complete: ReadonlyArray<CommentThread>
): { readonly news: ReadonlyArray<Adapter.InboxComment>; readonly cursor: Cursor } => {
  const news = new Map<string, Listed>()
  for (const item of listed) {
    if (item.publishedMs >= cursor.since && !Object.hasOwn(cursor.seen, item.comment.id)) news.set(item.comment.id, item)
  }
  const newest = Math.max(cursor.since, ...listed.map((item) => item.publishedMs).filter(Number.isFinite))
  let since = Math.max(cursor.since, newest - settleMs)
  let kept = [...Object.entries(cursor.seen), ...[...news.values()].map((item) => [item.comment.id, item.publishedMs] as const)]
    .filter(([, at]) => at >= since)
    .sort(([, a], [, b]) => b - a)
  if (kept.length > maxSeen) {
    // Whatever is dropped must stay out: move `since` past it.
    since = kept[maxSeen]![1] + 1
    kept = kept.filter(([, at]) => at >= since)
  }
  const replies = { ...cursor.replies }
  for (const thread of complete) {
    const total = hiddenReplies(thread)
    if (total === undefined) continue
    // Re-inserted so the most recently read threads are the ones kept.
    delete replies[thread.id]
    replies[thread.id] = total
  }
  const counts = Object.entries(replies).slice(-maxReplyCounts)
  return {
    news: [...news.values()].sort((a, b) => a.publishedMs - b.publishedMs).map((item) => item.comment),
    cursor: { since, seen: Object.fromEntries(kept), replies: Object.fromEntries(counts) }
  }
}
