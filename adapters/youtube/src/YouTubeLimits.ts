import type { Adapter, ApiVersion, Limits } from "@herald/adapter-kit"

// YouTube's content rules as data (product.md, "Networks and their keys"; networks.md §5.3): the
// description is at most 5,000 UTF-8 bytes and the title at most 100 characters, neither with `<` or `>`;
// exactly one video of up to 256 GB (https://developers.google.com/youtube/v3/docs/videos/insert); an optional
// custom thumbnail. YouTube takes no alt text. A video is at most 12 hours long on any channel, and at most
// `unverifiedMaxVideoMs` on a channel that is not verified, which the adapter asks the channel about.
// https://developers.google.com/youtube/v3/docs/videos#snippet.title
// https://support.google.com/youtube/answer/71673 (12 hours or 256 GB, 15 minutes unverified; read 2026-12-03)
export const limits = {
  forms: {
    post: {
      text: { max: 5000, counter: "utf8-bytes", forbidden: ["<", ">"] },
      media: {
        minItems: 1,
        maxItems: 1,
        maxPhotos: 0,
        maxVideos: 1,
        mixing: false,
        maxVideoBytes: 256 * 1024 ** 3,
        videoDurationMs: { min: 0, max: 12 * 60 * 60 * 1000 }
      },
      title: { required: true, max: 100, forbidden: ["<", ">"] },
      thumbnail: true
    }
  }
} as const satisfies Limits.Limits

/**
 * The longest video a channel may upload before it is verified; its `status.longUploadsStatus` says whether
 * it may upload longer (`allowed`), could once verified (`eligible`) or may not (`disallowed`). YouTube takes
 * a longer video's bytes and rejects it after processing (`rejectionReason: length`).
 * https://developers.google.com/youtube/v3/docs/channels#status.longUploadsStatus (read 2026-12-03)
 * https://developers.google.com/youtube/v3/docs/videos#status.rejectionReason (read 2026-12-03)
 */
export const unverifiedMaxVideoMs = 15 * 60 * 1000

export const capabilities: Adapter.Capabilities = {
  // A video is required.
  text: false,
  photos: false,
  videos: true,
  thread: false,
  // Not offered: a comment that fails after the upload would leave the engine to retry a target whose
  // video already exists (see README).
  firstComment: false,
  refresh: true,
  // The channel's uploads playlist shows a video from the moment its last byte arrived.
  reconcile: true,
  // Uploads are processed before they can be watched.
  asyncProcessing: true
}

/**
 * Every call is YouTube Data API v3 (`/youtube/v3/…`, `/upload/youtube/v3/…`), with no end announced.
 * YouTube's terms promise to announce a backward-incompatible change and keep the old behaviour about six
 * months after.
 */
export const api = {
  version: "v3",
  sunset: null,
  source: "https://developers.google.com/youtube/v3/revision_history",
  checked: "2026-12-02"
} as const satisfies ApiVersion.ApiVersion
