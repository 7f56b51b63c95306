import type { PostVersion } from "@herald/adapter-kit"
import type { Facet } from "./richText.ts"

/**
 * Pure translation of a Herald post into `app.bsky.feed.post` records
 * (https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/feed/post.json): text with its
 * facets, an embed of up to 4 images with alt text (`app.bsky.embed.images`) or one video
 * (`app.bsky.embed.video`), and reply references for the parts that follow the first post.
 */

export interface StrongRef {
  readonly uri: string
  readonly cid: string
}

/** `root` is the thread's first post along the whole chain; `parent` the post directly above. */
export interface ReplyRef {
  readonly root: StrongRef
  readonly parent: StrongRef
}

/** An uploaded blob with what the embed says of it. */
export interface Uploaded {
  readonly blob: Readonly<Record<string, unknown>>
  readonly item: PostVersion.MediaItem
}

/** The media's alt text; the lexicon requires the field, and empty means none. */
const altOf = (item: PostVersion.MediaItem): string => item.alt ?? ""

const aspectRatio = (item: PostVersion.MediaItem) =>
  item.width !== null && item.height !== null && item.width > 0 && item.height > 0
    ? { aspectRatio: { width: item.width, height: item.height } }
    : {}

export const embed = (uploaded: ReadonlyArray<Uploaded>): Readonly<Record<string, unknown>> | undefined => {
  const [first] = uploaded
  if (first === undefined) return undefined
  if (first.item.kind === "video") {
    return { $type: "app.bsky.embed.video", video: first.blob, alt: altOf(first.item), ...aspectRatio(first.item) }
  }
  return {
    $type: "app.bsky.embed.images",
    images: uploaded.map(({ blob, item }) => ({ image: blob, alt: altOf(item), ...aspectRatio(item) }))
  }
}

export const record = (input: {
  readonly text: string
  readonly facets: ReadonlyArray<Facet>
  readonly createdAt: string
  readonly embed?: Readonly<Record<string, unknown>> | undefined
  readonly reply?: ReplyRef | undefined
}): Readonly<Record<string, unknown>> => ({
  $type: "app.bsky.feed.post",
  text: input.text,
  createdAt: input.createdAt,
  ...(input.facets.length === 0 ? {} : { facets: input.facets }),
  ...(input.embed === undefined ? {} : { embed: input.embed }),
  ...(input.reply === undefined ? {} : { reply: input.reply })
})

/** The reply to `parent` in the thread that starts at `root`. */
export const replyTo = (root: StrongRef, parent: StrongRef): ReplyRef => ({ root, parent })

/** The parts after the first post, in order: the thread's follow-ups, then the first comment (a reply to the post). */
export interface Part {
  readonly text: string
  readonly kind: "thread" | "comment"
}

export const partsAfter = (post: PostVersion.PostVersion): ReadonlyArray<Part> => [
  ...post.thread.filter((text) => text.trim() !== "").map((text): Part => ({ text, kind: "thread" })),
  ...(post.firstComment === null || post.firstComment.trim() === "" ? [] : [{ text: post.firstComment, kind: "comment" as const }])
]

/** Whether a record Bluesky lists is the one Herald sent (the PDS keeps the text as given). */
export const sameText = (sent: string, listed: string | undefined): boolean =>
  listed !== undefined && sent.normalize("NFC").trim() === listed.normalize("NFC").trim()

/** The post's web link: `https://bsky.app/profile/<handle>/post/<rkey>`. */
export const permalink = (webBaseUrl: string, handle: string, uri: string): string =>
  `${webBaseUrl}/profile/${handle}/post/${uri.slice(uri.lastIndexOf("/") + 1)}`

/** Where a post with replies stands between two steps: its first post, the reply above the next, and which part is next. */
export interface Progress {
  readonly root: StrongRef
  readonly parent: StrongRef
  readonly next: number
}

export const encodeProgress = (progress: Progress): string =>
  ["replies", progress.root.uri, progress.root.cid, progress.parent.uri, progress.parent.cid, String(progress.next)].join(" ")

/** Undefined for a handle this adapter did not write. URIs and CIDs hold no spaces. */
export const decodeProgress = (handle: string): Progress | undefined => {
  const [tag, rootUri, rootCid, parentUri, parentCid, next, ...rest] = handle.split(" ")
  if (tag !== "replies" || rest.length > 0 || next === undefined || !/^\d+$/.test(next)) return undefined
  if (!rootUri || !rootCid || !parentUri || !parentCid) return undefined
  return { root: { uri: rootUri, cid: rootCid }, parent: { uri: parentUri, cid: parentCid }, next: Number(next) }
}
