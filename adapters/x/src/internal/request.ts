import type { PostVersion } from "@herald/adapter-kit"
import { Base64 } from "effect/encoding"
import { upload } from "../XLimits.ts"

/**
 * Pure translation of a Herald post into X's payloads, and of the publishing progress into the opaque
 * handle the engine keeps between steps.
 */

/** The body of `POST /2/tweets` (https://docs.x.com/x-api/posts/manage-tweets/introduction). */
export interface TweetBody {
  readonly text?: string
  readonly media?: { readonly media_ids: ReadonlyArray<string> }
  readonly reply?: { readonly in_reply_to_tweet_id: string }
}

export const tweetBody = (
  text: string,
  mediaIds: ReadonlyArray<string> = [],
  inReplyTo: string | undefined = undefined
): TweetBody => ({
  // A media-only post sends no text at all: X refuses an empty string.
  ...(text.trim() === "" ? {} : { text }),
  ...(mediaIds.length === 0 ? {} : { media: { media_ids: mediaIds } }),
  ...(inReplyTo === undefined ? {} : { reply: { in_reply_to_tweet_id: inReplyTo } })
})

/** The body of the one-shot `POST /2/media/upload`: base64 in JSON, with no `media_type` (X's schema has none). */
export const uploadBody = (bytes: Uint8Array, category: MediaCategory) => ({ media: Base64.encode(bytes), media_category: category })

/** The body of `POST /2/media/upload/initialize`, the start of a chunked upload. */
export const initializeBody = (totalBytes: number, mediaType: string, category: MediaCategory) => ({
  media_type: mediaType,
  total_bytes: totalBytes,
  media_category: category
})

/** The body of `POST /2/media/metadata` that sets a photo's alt text. */
export const altTextBody = (mediaId: string, text: string) => ({ id: mediaId, metadata: { alt_text: { text } } })

/** The body of `POST /2/dm_conversations/{id}/messages`. */
export const messageBody = (text: string) => ({ text })

/** The posts that follow the first, in order: the thread, then the first comment; each replies to the one before. */
export const followUps = (post: PostVersion.PostVersion): ReadonlyArray<string> => [
  ...post.thread,
  ...(post.firstComment === null || post.firstComment.trim() === "" ? [] : [post.firstComment])
]

/** X's `media_category` for an attachment (https://docs.x.com/x-api/media/quickstart/media-upload-chunked). */
export type MediaCategory = "tweet_image" | "tweet_gif" | "tweet_video"

export const mediaCategory = (item: PostVersion.MediaItem): MediaCategory =>
  item.kind === "video" ? "tweet_video" : item.mimeType === "image/gif" ? "tweet_gif" : "tweet_image"

/** Video bytes in append segments, each of which fits one request within X's chunk limit (`XLimits.upload`). */
export const segments = (bytes: Uint8Array, size: number = upload.segmentBytes): ReadonlyArray<Uint8Array> =>
  Array.from({ length: Math.max(1, Math.ceil(bytes.length / size)) }, (_, index) =>
    bytes.subarray(index * size, (index + 1) * size))

/** The public link of a post (https://x.com/{username}/status/{id}). */
export const permalink = (webBaseUrl: string, username: string, id: string) => `${webBaseUrl}/${username}/status/${id}`

/**
 * Where publishing stands between two engine steps: a video X is still processing, or a reply chain with
 * replies left to post. Each reply is its own step so that a failure part-way never posts the first ones again.
 */
export type Progress =
  | { readonly _tag: "Video"; readonly mediaId: string }
  | { readonly _tag: "Replies"; readonly rootId: string; readonly previousId: string; readonly next: number }

export const encodeProgress = (progress: Progress): string =>
  progress._tag === "Video"
    ? `video:${progress.mediaId}`
    : `replies:${progress.rootId}:${progress.previousId}:${progress.next}`

export const decodeProgress = (handle: string): Progress | undefined => {
  const [tag, first, second, third] = handle.split(":")
  if (tag === "video" && first !== undefined && first !== "") return { _tag: "Video", mediaId: first }
  const next = Number(third)
  if (tag === "replies" && first !== undefined && second !== undefined && Number.isInteger(next) && next >= 0) {
    return { _tag: "Replies", rootId: first, previousId: second, next }
  }
  return undefined
}

/**
 * Whether a post X returns is the one Herald sent. X wraps every link in a t.co link and escapes `&`, `<`
 * and `>` in `text` (https://docs.x.com/x-api/fundamentals/data-dictionary), so both sides drop their links
 * and X's side is unescaped before comparing.
 */
export const sameText = (sent: string, returned: string): boolean =>
  withoutLinks(sent.normalize("NFC")) === withoutLinks(unescape(returned).normalize("NFC"))

const withoutLinks = (text: string) => text.replace(/https?:\/\/\S+/g, "").replace(/\s+/g, " ").trim()

/** Whether a post can be told apart by its text: not when it is only media and links, which match any such post. */
export const findableByText = (sent: string): boolean => withoutLinks(sent.normalize("NFC")) !== ""

/** A post's `text` as its author wrote it: X escapes `&`, `<` and `>` in what it returns. */
export const unescape = (text: string): string => text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")
