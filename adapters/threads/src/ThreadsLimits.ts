import type { Adapter, ApiVersion, Limits } from "@herald/adapter-kit"

/**
 * Threads' limits as data (product.md, "Networks and their keys"): 500 characters, an emoji counted as its
 * UTF-8 bytes ("Emojis are counted as the number of UTF-8 bytes"), at most 5 distinct
 * links (https://developers.facebook.com/documentation/threads/posts), and up to 20 photos or videos, which
 * may be mixed in a carousel. Text-only posts are allowed; a post needs text or media. Photos up to 8 MB,
 * videos up to 1 GB and 5 minutes, with no shortest length given (same page, "Video specifications", read
 * 2026-12-03). Each photo's and video's description goes as `alt_text`
 * (https://developers.facebook.com/documentation/threads/posts/accessibility, read 2026-12-02); Meta states no
 * length for it, so 1,000 characters is Herald's bound until it does, as for Instagram.
 */
export const limits = {
  forms: {
    post: {
      text: { max: 500, counter: "emoji-bytes", maxLinks: 5 },
      media: {
        minItems: 0,
        maxItems: 20,
        maxPhotos: 20,
        maxVideos: 20,
        mixing: true,
        videoDurationMs: { min: 0, max: 5 * 60 * 1_000 },
        maxPhotoBytes: 8 * 1024 * 1024,
        maxVideoBytes: 1024 ** 3,
        altText: { max: 1_000 }
      },
      textOrMedia: true,
      // A first comment is a reply published right after the post.
      firstComment: true
    }
  }
} as const satisfies Limits.Limits

export const capabilities: Adapter.Capabilities = {
  text: true,
  photos: true,
  videos: true,
  thread: false,
  firstComment: true,
  // The long-lived token is refreshed with itself (`th_refresh_token`).
  refresh: true,
  reconcile: true,
  // Every post is a container Threads prepares before it can be published.
  asyncProcessing: true
}

/**
 * Every call names Threads API v1.0 (graph.threads.net/v1.0/…), the only version Meta documents for Threads,
 * with no sunset announced (its changelog, read 2026-12-02, adds fields only).
 */
export const api = {
  version: "v1.0",
  sunset: null,
  source: "https://developers.facebook.com/docs/threads/changelog",
  checked: "2026-12-02"
} as const satisfies ApiVersion.ApiVersion
