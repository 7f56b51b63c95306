import type { PostVersion } from "@herald/adapter-kit"

// A post as Instagram's media containers: pure data, no calls. Instagram fetches every file from its
// public URL (https://developers.facebook.com/docs/instagram-platform/content-publishing/), so a container
// names the URL, never bytes.

/** The form fields of one `POST /{ig-user-id}/media` call. */
export type ContainerParams = Readonly<Record<string, string>>

export type Plan =
  /** One container: a photo, a reel or a story. */
  | { readonly _tag: "Single"; readonly container: ContainerParams }
  /** Children first (no caption), then a parent naming them; the caption goes on the parent. */
  | { readonly _tag: "Carousel"; readonly children: ReadonlyArray<ContainerParams>; readonly caption: string }

const withCaption = (params: Record<string, string>, caption: string): ContainerParams =>
  caption === "" ? params : { ...params, caption }

const mediaUrl = (item: PostVersion.MediaItem): Record<string, string> =>
  item.kind === "image" ? { image_url: item.url } : { video_url: item.url }

/**
 * A feed photo and its alt text, where it has one: `alt_text` is taken on feed images and carousel images
 * since March 2025, not on reels or stories (IG media reference, networks.md §2.2).
 */
const feedImage = (item: PostVersion.MediaItem): Record<string, string> =>
  item.alt === null || item.alt.trim() === "" ? { image_url: item.url } : { image_url: item.url, alt_text: item.alt }

/**
 * The containers for a post the validator accepted. A single video is a reel: since July 2023 the API
 * publishes every feed video as one (`VIDEO` only exists for carousel children).
 */
export const plan = (post: PostVersion.PostVersion): Plan => {
  const [first, ...rest] = post.media
  if (post.format === "story" && first !== undefined) {
    // Stories show no caption, so none is sent.
    return { _tag: "Single", container: { media_type: "STORIES", ...mediaUrl(first) } }
  }
  if (first !== undefined && rest.length === 0) {
    return {
      _tag: "Single",
      container: first.kind === "image"
        ? withCaption(feedImage(first), post.text)
        : withCaption({ media_type: "REELS", video_url: first.url, share_to_feed: "true" }, post.text)
    }
  }
  return {
    _tag: "Carousel",
    caption: post.text,
    children: post.media.map((item) =>
      item.kind === "image"
        ? { is_carousel_item: "true", ...feedImage(item) }
        : { is_carousel_item: "true", media_type: "VIDEO", video_url: item.url }
    )
  }
}

/** The carousel's own container, once its children exist. */
export const carouselParent = (caption: string, childIds: ReadonlyArray<string>): ContainerParams =>
  withCaption({ media_type: "CAROUSEL", children: childIds.join(",") }, caption)

/** Videos take Instagram longer to process than photos, so they are checked less often. */
export const checkAfterMs = (post: PostVersion.PostVersion): number =>
  post.media.some((item) => item.kind === "video") ? 10_000 : 2_000

/**
 * What `poll` resumes from, kept by the engine between polls: the children of a carousel still
 * processing, or the one container to publish once it is finished.
 */
/**
 * Where publishing stands between two engine steps: carousel children or a container being prepared, or the
 * media out with its first comment (`Comment`) or its link (`Link`) still to come.
 */
export type Handle =
  | { readonly _tag: "Children"; readonly ids: ReadonlyArray<string> }
  | { readonly _tag: "Container"; readonly id: string }
  | { readonly _tag: "Comment"; readonly id: string }
  | { readonly _tag: "Link"; readonly id: string }

const kinds = { Container: "container", Comment: "comment", Link: "link" } as const

export const encodeHandle = (handle: Handle): string =>
  handle._tag === "Children" ? `children:${handle.ids.join(",")}` : `${kinds[handle._tag]}:${handle.id}`

export const decodeHandle = (text: string): Handle | undefined => {
  const separator = text.indexOf(":")
  const kind = text.slice(0, separator)
  const ids = text.slice(separator + 1).split(",").filter((id) => id !== "")
  if (separator < 0 || ids.length === 0) return undefined
  if (kind === "children") return { _tag: "Children", ids }
  const tag = (Object.keys(kinds) as ReadonlyArray<keyof typeof kinds>).find((key) => kinds[key] === kind)
  return tag !== undefined && ids.length === 1 ? { _tag: tag, id: ids[0]! } : undefined
}

/** A reconcile match: Instagram keeps the caption as sent, bar surrounding whitespace. */
export const sameCaption = (caption: string | undefined, text: string): boolean =>
  (caption ?? "").trim() === text.trim()
