import type { Adapter, ApiVersion, Limits } from "@herald/adapter-kit"

// TikTok's content rules as data (product.md, "Networks and their keys"; networks.md §4.3):
// a caption of at most 2,200 UTF-16 code units ("2200 in UTF-16 runes" for a video's `post_info.title`,
// https://developers.tiktok.com/doc/content-posting-api-reference-direct-post; a photo post's description takes
// 4,000, https://developers.tiktok.com/doc/content-posting-api-reference-photo-post, and Herald holds both to the
// smaller), and either exactly one video of 3 s to 10 min or 1 to 35 photos, never both; photos up to 20 MB,
// videos up to 4 GB. TikTok takes no alt text.
// https://developers.tiktok.com/doc/content-posting-api-media-transfer-guide
export const limits = {
  forms: {
    post: {
      text: { max: 2200, counter: "utf16-units" },
      media: {
        minItems: 1,
        maxItems: 35,
        maxPhotos: 35,
        maxVideos: 1,
        mixing: false,
        videoDurationMs: { min: 3_000, max: 600_000 },
        maxPhotoBytes: 20 * 1024 * 1024,
        maxVideoBytes: 4 * 1024 ** 3
      }
    }
  }
} as const satisfies Limits.Limits

export const capabilities: Adapter.Capabilities = {
  // TikTok has no text-only posts: a video or photos are required.
  text: false,
  photos: true,
  videos: true,
  thread: false,
  // The Content Posting API has no endpoint to comment on one's own post (networks.md §4.2).
  firstComment: false,
  refresh: true,
  // No lookup of a post whose answer was lost: see `TikTokAdapter.ts`.
  reconcile: false,
  // Every post is a `publish_id` polled through `status/fetch`.
  asyncProcessing: true
}

/**
 * Every call is TikTok's v2 Content Posting API (open.tiktokapis.com/v2/…), with no deprecation in TikTok's
 * changelog (read 2026-12-02); TikTok announced its v1 to v2 move as a dated bulletin.
 */
export const api = {
  version: "v2",
  sunset: null,
  source: "https://developers.tiktok.com/doc/changelog",
  checked: "2026-12-02"
} as const satisfies ApiVersion.ApiVersion
