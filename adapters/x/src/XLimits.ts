import type { Adapter, ApiVersion, Limits } from "@herald/adapter-kit"

/**
 * X's chunked video upload, from X's OpenAPI document of the API v2 (`specs/openapi.json` of
 * https://github.com/xdevplatform/xdk, version 2.167, read 2026-12-03) and its reference pages
 * (https://docs.x.com/x-api/media/initialize-media-upload, https://docs.x.com/x-api/media/append-media-upload,
 * read 2026-12-03):
 * - `maxTotalBytes`: initialize's `total_bytes` is at most 17,179,869,184 (16 GiB).
 * - `maxSegments`: append's `segment_index` runs from 0 to 999.
 * - `maxChunkBytes`: append takes `multipart/form-data` (`media` binary) or JSON (`media` base64); the v2
 *   pages state no size, X's APPEND reference says a chunk "must be <= 5 MB", raw or base64
 *   (https://developer.x.com/en/docs/twitter-api/v1/media/upload-media/api-reference/post-media-upload-append,
 *   read 2026-12-03). Read as 5,000,000 bytes, the smaller of the two readings of "MB".
 * - `segmentBytes`: Herald sends each segment binary, as a form (base64 would make it 4/3 larger), and
 *   leaves 4 KiB of the chunk limit to the form's boundaries, part headers and `segment_index`, so a whole
 *   request stays within it.
 */
export const upload = {
  maxTotalBytes: 17_179_869_184,
  maxSegments: 1_000,
  maxChunkBytes: 5_000_000,
  segmentBytes: 5_000_000 - 4_096
} as const

/**
 * X's limits as data (product.md, "Networks and their keys"). Text is counted the way X counts it
 * (https://docs.x.com/fundamentals/counting-characters): URLs weigh 23, CJK and emoji weigh 2.
 * A post carries up to 4 photos or 1 video, never both
 * (https://docs.x.com/x-api/media/quickstart/best-practices; `media.media_ids` at most 4 in X's OpenAPI
 * document above). A thread is a reply chain of at most 25 posts, the first included. Photos up to 5 MB
 * (https://docs.x.com/x-api/media/quickstart/best-practices); alt text of up to 1,000 characters on each
 * photo through the media metadata endpoint (https://docs.x.com/x-api/media/create-media-metadata;
 * `alt_text.text` `maxLength` 1000 in the OpenAPI document). A video is what 1,000 segments carry,
 * 4,995,904,000 bytes, under initialize's 16 GiB (`upload` above). Video length is not checked here: X
 * holds it to the posting account (Premium or not) when the post is made.
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
        maxVideoBytes: Math.min(upload.maxTotalBytes, upload.maxSegments * upload.segmentBytes),
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
