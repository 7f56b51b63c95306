import type { PostVersion } from "@herald/adapter-kit"

// A Herald post as YouTube's `videos.insert` metadata, with no I/O.
// https://developers.google.com/youtube/v3/docs/videos/insert

export interface VideoMetadata {
  readonly snippet: { readonly title: string; readonly description: string }
  readonly status: { readonly privacyStatus: "public" }
}

/**
 * The title (required by the validator) and the post's text as the description. Public: since Nov 2026
 * YouTube no longer forces uploads from unverified projects to private (networks.md §5.4), though a
 * channel's own settings may still.
 */
export const metadata = (post: PostVersion.PostVersion): VideoMetadata => ({
  snippet: { title: post.title ?? "", description: post.text },
  status: { privacyStatus: "public" }
})

/** The body of `comments.insert`: a reply to a top-level comment. */
export const replyBody = (parentId: string, text: string) => ({ snippet: { parentId, textOriginal: text } })

/** The video to upload: the validator lets through exactly one. */
export const videoOf = (post: PostVersion.PostVersion): PostVersion.MediaItem | undefined =>
  post.media.find((item) => item.kind === "video")

export const permalink = (webBaseUrl: string, videoId: string): string =>
  `${webBaseUrl}/watch?v=${encodeURIComponent(videoId)}`

/** Whether an upload found on the channel is this post: same title and description. */
export const matches = (
  post: PostVersion.PostVersion,
  upload: { readonly title: string; readonly description: string }
): boolean => {
  const expected = metadata(post).snippet
  return upload.title === expected.title && upload.description === expected.description
}
