import type { Adapter, ApiVersion, Limits } from "@herald/adapter-kit"

/**
 * What a LinkedIn member post may carry, as data: the validator checks posts against it and
 * `GET /api/v1/networks` publishes it. Figures from the Posts, Images and Videos API pages:
 * https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api
 * https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/videos-api
 * File sizes are not on those pages (networks.md §6.3): photos at 5 MB, the low end third parties give, so
 * a larger photo goes as a fitted copy rather than risk a refusal; videos up to 500 MB (Ayrshare). Each
 * image and video takes `altText` (Posts API `media.altText`, `multiImage.images[].altText`), at most 4,086
 * characters (Images API). Videos are MP4 only, 3 s to 30 min (Videos API, "Video Specifications", read
 * 2026-12-03): a MOV file is refused before it is sent.
 */
export const limits: Limits.Limits = {
  forms: {
    post: {
      // `commentary` holds at most 3,000 characters.
      text: { max: 3_000, counter: "characters" },
      media: {
        // Text-only posts are allowed.
        minItems: 0,
        maxItems: 20,
        // A `multiImage` post takes up to 20 images.
        maxPhotos: 20,
        maxVideos: 1,
        // A post's `content` is either one video or images, never both.
        mixing: false,
        videoDurationMs: { min: 3_000, max: 30 * 60 * 1_000 },
        videoTypes: ["video/mp4"],
        maxPhotoBytes: 5 * 1024 * 1024,
        maxVideoBytes: 500 * 1024 * 1024,
        altText: { max: 4_086 }
      },
      // Posted through the Social Actions API right after the post.
      firstComment: true
    }
  }
}

export const capabilities: Adapter.Capabilities = {
  text: true,
  photos: true,
  videos: true,
  thread: false,
  firstComment: true,
  // Only approved partner apps get refresh tokens; the adapter refreshes whenever LinkedIn gave one.
  refresh: true,
  // The author finder lists the member's recent posts.
  reconcile: true,
  // Videos are processed after upload; publishing waits for them to become AVAILABLE.
  asyncProcessing: true
}

/**
 * Every `/rest` call names this version in `LinkedIn-Version` (the simulator refuses a call without one).
 * LinkedIn serves a version "for a minimum of one year" (https://learn.microsoft.com/en-us/linkedin/marketing/versioning)
 * and lists each one's sunset in its migrations table: 202601, which the adapter named before, ends on
 * 2027-01-15. 202603 is the latest version that page names (read 2026-12-02); its row in the table was not
 * reachable, so its sunset is taken as 202601's date two months on, the earliest LinkedIn's rule and
 * practice allow: read the table again before then. The recent changes from 202601 to 202603 touch none of
 * the calls the adapter makes (posts, images, videos, comments; userinfo is not versioned).
 */
export const api = {
  version: "202603",
  sunset: "2027-03-15",
  source: "https://learn.microsoft.com/en-us/linkedin/marketing/integrations/migrations",
  checked: "2026-12-02"
} as const satisfies ApiVersion.ApiVersion
