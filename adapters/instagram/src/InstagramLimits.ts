import type { Adapter, ApiVersion, Limits } from "@herald/adapter-kit"

// Instagram's content rules as data; the kit's validator checks posts against them and
// `GET /api/v1/networks` publishes them. Sources: https://developers.facebook.com/docs/instagram-platform/content-publishing/
// and the IG media reference https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media
// (networks.md §2.3): photos up to 8 MB, reels up to 300 MB; story videos up to 100 MB (third parties). Feed
// photos take `alt_text` (since March 2025; not reels or stories). Meta states no length for it; 1,000
// characters is Herald's bound until it does.

export const limits = {
  forms: {
    // A feed post: one photo, one reel, or a carousel of 2 to 10 items where photos and videos mix.
    post: {
      text: { max: 2_200, counter: "characters" },
      media: {
        minItems: 1,
        maxItems: 10,
        maxPhotos: 10,
        maxVideos: 10,
        mixing: true,
        // 4:5 portrait to 1.91:1 landscape.
        photoAspectRatio: { min: 0.8, max: 1.91 },
        // Reels: 3 seconds to 15 minutes.
        videoDurationMs: { min: 3_000, max: 900_000 },
        maxPhotoBytes: 8 * 1024 * 1024,
        maxVideoBytes: 300 * 1024 * 1024,
        altText: { max: 1_000 }
      },
      firstComment: true
    },
    // A story shows no caption, so the text is accepted but never sent; stories take no comments.
    story: {
      text: { max: 2_200, counter: "characters", ignored: true },
      media: {
        minItems: 1,
        maxItems: 1,
        maxPhotos: 1,
        maxVideos: 1,
        mixing: false,
        videoDurationMs: { min: 3_000, max: 60_000 },
        maxPhotoBytes: 8 * 1024 * 1024,
        maxVideoBytes: 100 * 1024 * 1024
      }
    }
  }
} as const satisfies Limits.Limits

export const capabilities: Adapter.Capabilities = {
  // Every Instagram post needs a photo or a video.
  text: false,
  photos: true,
  videos: true,
  thread: false,
  firstComment: true,
  refresh: true,
  reconcile: true,
  // Media containers are processed before they can be published.
  asyncProcessing: true
}

/**
 * The Graph API version every call names (graph.instagram.com/v27.0/…; the simulator serves the same one): Meta's
 * newest, introduced 2026-11-04 with no end date set ("Available until: TBD" in the changelog's table;
 * https://developers.facebook.com/blog/post/2026/11/04/introducing-graph-api-v27-and-marketing-api-v27/).
 * Meta keeps a version about two years; v21.0, which the adapter called before, ends on 2027-01-21. The changelogs from v21.0 to v27.0
 * change none of the calls or fields the adapter uses (read 2026-12-02; v23.0's and v24.0's pages were not
 * reachable): their deprecations concern insights metrics and legacy protocol features (multi-id requests,
 * method override, field aliases, JSONP, batch) that it does not use.
 */
export const api = {
  version: "v27.0",
  sunset: null,
  source: "https://developers.facebook.com/docs/graph-api/changelog",
  checked: "2026-12-02"
} as const satisfies ApiVersion.ApiVersion
