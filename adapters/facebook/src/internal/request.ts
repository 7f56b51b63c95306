import type { PostVersion } from "@herald/adapter-kit"

// A post as Facebook Page calls: pure data, no calls. Facebook fetches photos and videos from their
// public URLs (`url`, `file_url`), so no bytes are sent.

/** The form fields of one Graph call. */
export type Params = Readonly<Record<string, string>>

export type Plan =
  /** `POST /{page-id}/feed` with the message. */
  | { readonly _tag: "Text"; readonly feed: Params }
  /**
   * Each photo uploaded unpublished to `POST /{page-id}/photos`, then one feed post naming them in
   * `attached_media`, so the photos form a single post (https://developers.facebook.com/docs/pages-api/posts#publish-photos).
   */
  | { readonly _tag: "Photos"; readonly photos: ReadonlyArray<Params>; readonly message: string }
  /** `POST /{page-id}/videos` with `file_url`; Facebook processes it before it shows. */
  | { readonly _tag: "Video"; readonly video: Params }

const withText = (params: Record<string, string>, key: string, text: string): Params =>
  text === "" ? params : { ...params, [key]: text }

/**
 * One photo, uploaded unpublished, with its description as `alt_text_custom` when it has one (a parameter of
 * `POST /{page-id}/photos` in Meta's specification, api_specs/specs/Page.json of facebook-business-sdk-codegen,
 * and "user provided accessible alternative description" in https://developers.facebook.com/docs/graph-api/reference/photo/).
 * Page videos take none.
 */
const photoParams = (item: PostVersion.MediaItem): Params =>
  item.alt === null || item.alt.trim() === ""
    ? { url: item.url, published: "false" }
    : { url: item.url, published: "false", alt_text_custom: item.alt }

/** The calls for a post the validator accepted (photos or one video, never both). */
export const plan = (post: PostVersion.PostVersion): Plan => {
  const video = post.media.find((item) => item.kind === "video")
  if (video !== undefined) return { _tag: "Video", video: withText({ file_url: video.url }, "description", post.text) }
  if (post.media.length > 0) {
    return { _tag: "Photos", message: post.text, photos: post.media.map(photoParams) }
  }
  return { _tag: "Text", feed: { message: post.text } }
}

/** The feed post that publishes the uploaded photos together. */
export const feedWithPhotos = (message: string, photoIds: ReadonlyArray<string>): Params =>
  withText({ attached_media: JSON.stringify(photoIds.map((id) => ({ media_fbid: id }))) }, "message", message)

/** Facebook processes videos for a while; checking every 10 seconds is plenty. */
export const videoCheckAfterMs = 10_000

/**
 * What `poll` resumes from: the video being processed, or the post out with its first comment (`Comment`) or
 * its link (`Link`) still to come.
 */
export type Handle =
  | { readonly _tag: "Video"; readonly id: string }
  | { readonly _tag: "Comment"; readonly id: string }
  | { readonly _tag: "Link"; readonly id: string }

const kinds = { Video: "video", Comment: "comment", Link: "link" } as const

export const encodeHandle = (handle: Handle): string => `${kinds[handle._tag]}:${handle.id}`

export const decodeHandle = (handle: string): Handle | undefined => {
  const separator = handle.indexOf(":")
  const id = handle.slice(separator + 1)
  const tag = (Object.keys(kinds) as ReadonlyArray<keyof typeof kinds>).find((key) => kinds[key] === handle.slice(0, separator))
  return tag !== undefined && /^[\w-]+$/.test(id) ? { _tag: tag, id } : undefined
}

/**
 * A video's `permalink_url` is a path (`/{page}/videos/{id}/`) while a post's is a full URL; both
 * become full URLs under Facebook's web address.
 */
export const absoluteUrl = (webBaseUrl: string, permalink: string): string =>
  permalink.startsWith("/") ? `${webBaseUrl}${permalink}` : permalink

/** A reconcile match: Facebook keeps the message as sent, bar surrounding whitespace. */
export const sameMessage = (message: string | undefined, text: string): boolean =>
  (message ?? "").trim() === text.trim()
