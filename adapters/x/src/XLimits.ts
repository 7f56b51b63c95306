import type { Adapter, ApiVersion, Limits } from "@herald/adapter-kit"

/**
 * X's limits as data (product.md, "Networks and their keys"). Text is counted the way X counts it
 * (https://docs.x.com/fundamentals/counting-characters): URLs weigh 23, CJK and emoji weigh 2.
 * A post carries up to 4 photos or 1 video, never both
 * (https://docs.x.com/x-api/media/quickstart/best-practices). A thread is a reply chain of at most 25
 * posts, the first included. Photos up to 5 MB, videos up to 8 GB for accounts without Premium
 * (https://docs.x.com/x-api/media/quickstart/best-practices); alt text of up to 1,000 characters on each
 * photo through the media metadata endpoint (https://docs.x.com/x-api/media/create-media-metadata).
 */
export const limits = {
  forms: {
    post: {
      text: { max: 280, counter: "x-weighted" },
      media: {
        minItems: 0,
        maxItems: 4,
        maxPhotos: 4,
        maxVideos: 1,
        mixing: false,
        maxPhotoBytes: 5 * 1024 * 1024,
        maxVideoBytes: 8 * 1024 ** 3,
        altText: { max: 1_000 }
      },
      textOrMedia: true,
      thread: { maxPosts: 25, maxLength: 280 },
      // A first comment is a reply to the post (or to the last post of its thread).
      firstComment: true
    }
  }
} as const satisfies Limits.Limits

export const capabilities: Adapter.Capabilities = {
  text: true,
  photos: true,
  videos: true,
  thread: true,
  firstComment: true,
  refresh: true,
  reconcile: true,
  // Videos are processed by X after upload; the post is created once processing has succeeded.
  asyncProcessing: true
}

/**
 * Every call is X API v2 (`/2/…`, media upload included): current, with no end announced. X changes what
 * breaks only with a major version, "no more than annually", with a migration guide.
 */
export const api = {
  version: "2",
  sunset: null,
  source: "https://docs.x.com/x-api/fundamentals/versioning",
  checked: "2026-12-02"
} as const satisfies ApiVersion.ApiVersion
