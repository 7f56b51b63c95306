import type { PostVersion } from "@herald/adapter-kit"

/**
 * Pure translation of a Herald post into Threads containers, and of the publishing progress into the opaque
 * handle the engine keeps between steps (https://developers.facebook.com/documentation/threads/posts).
 */

/** The parameters of `POST /v1.0/{user-id}/threads`, sent form-encoded. */
export type ContainerParams = Readonly<Record<string, string>>

/** Text is left out when empty: a media-only post is allowed, an empty `text` is not. */
const withText = (text: string): ContainerParams => (text.trim() === "" ? {} : { text })

/**
 * An image or video container, with its description as `alt_text` when it has one (Threads takes it on
 * images and videos, carousel items included: https://developers.facebook.com/documentation/threads/posts/accessibility).
 */
const mediaParams = (item: PostVersion.MediaItem): ContainerParams => ({
  ...(item.kind === "video" ? { media_type: "VIDEO", video_url: item.url } : { media_type: "IMAGE", image_url: item.url }),
  ...(item.alt === null || item.alt === "" ? {} : { alt_text: item.alt })
})

/**
 * How a post becomes containers: one container (TEXT, IMAGE or VIDEO), or a carousel whose items are
 * made first and then named by the CAROUSEL container.
 */
export type Plan =
  | { readonly _tag: "Single"; readonly container: ContainerParams }
  | { readonly _tag: "Carousel"; readonly items: ReadonlyArray<ContainerParams> }

export const plan = (post: PostVersion.PostVersion): Plan => {
  const [only, ...rest] = post.media
  if (only === undefined) return { _tag: "Single", container: { media_type: "TEXT", ...withText(post.text) } }
  if (rest.length === 0) return { _tag: "Single", container: { ...mediaParams(only), ...withText(post.text) } }
  return {
    _tag: "Carousel",
    items: post.media.map((item) => ({ ...mediaParams(item), is_carousel_item: "true" }))
  }
}

export const carousel = (text: string, itemIds: ReadonlyArray<string>): ContainerParams => ({
  media_type: "CAROUSEL",
  children: itemIds.join(","),
  ...withText(text)
})

/** A reply to a published post: how a first comment goes out. */
export const reply = (text: string, replyToId: string): ContainerParams => ({
  media_type: "TEXT",
  text,
  reply_to_id: replyToId
})

export const firstComment = (post: PostVersion.PostVersion): string | undefined =>
  post.firstComment === null || post.firstComment.trim() === "" ? undefined : post.firstComment

/** How long to wait before looking at a container again: videos take longer than photos. */
export const checkAfterMs = (post: PostVersion.PostVersion): number =>
  post.media.some((item) => item.kind === "video") ? 10_000 : 2_000

/**
 * Where publishing stands between two engine steps: carousel items being prepared, the post's container
 * being prepared, the post out (its link and first comment still to come), or the first comment's container
 * being prepared once the post is out.
 */
export type Progress =
  | { readonly _tag: "Items"; readonly itemIds: ReadonlyArray<string> }
  | { readonly _tag: "Post"; readonly containerId: string }
  | { readonly _tag: "Posted"; readonly postId: string }
  | { readonly _tag: "Comment"; readonly postId: string; readonly containerId: string }

export const encodeProgress = (progress: Progress): string => {
  switch (progress._tag) {
    case "Items":
      return `items:${progress.itemIds.join(",")}`
    case "Post":
      return `post:${progress.containerId}`
    case "Posted":
      return `posted:${progress.postId}`
    case "Comment":
      return `comment:${progress.postId}:${progress.containerId}`
  }
}

export const decodeProgress = (handle: string): Progress | undefined => {
  const [tag, first, second] = handle.split(":")
  if (first === undefined || first === "") return undefined
  if (tag === "items") return { _tag: "Items", itemIds: first.split(",") }
  if (tag === "post" && second === undefined) return { _tag: "Post", containerId: first }
  if (tag === "posted" && second === undefined) return { _tag: "Posted", postId: first }
  if (tag === "comment" && second !== undefined && second !== "") {
    return { _tag: "Comment", postId: first, containerId: second }
  }
  return undefined
}

/** Whether a post Threads lists is the one Herald sent (Threads keeps the text as given). */
export const sameText = (sent: string, listed: string | undefined): boolean =>
  listed !== undefined && sent.normalize("NFC").trim() === listed.normalize("NFC").trim()
