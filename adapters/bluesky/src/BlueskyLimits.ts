import type { Adapter, ApiVersion, Limits } from "@herald/adapter-kit"
import { maxBytes, maxGraphemes } from "./internal/richText.ts"

/**
 * Bluesky's limits as data, from the official lexicons (atproto commit d6296a1 of 2026-08-20, the same in
 * @atproto/api 0.21.0; read 2026-12-03), which test/BlueskyLimits.test.ts holds them to:
 * - text of at most 300 graphemes and 3,000 UTF-8 bytes (`text`'s maxGraphemes and maxLength,
 *   https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/feed/post.json);
 * - up to 4 images (`images`' maxLength) of at most 2,000,000 bytes each (`image`'s maxSize, "formerly
 *   limited to 1 MB", https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/embed/images.json);
 * - or one video of at most 300,000,000 bytes (`video`'s maxSize, "formerly limited to 100mb", accept
 *   `video/mp4` only, https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/embed/video.json),
 *   never both (a post has one embed); 3 minutes long at most (https://docs.bsky.app/docs/tutorials/video).
 * Text-only posts are allowed; a post needs text or media.
 */
export const limits = {
  forms: {
    post: {
      text: { max: maxGraphemes, counter: "graphemes", maxBytes },
      media: {
        minItems: 0,
        maxItems: 4,
        maxPhotos: 4,
        maxVideos: 1,
        mixing: false,
        videoDurationMs: { min: 0, max: 180_000 },
        maxPhotoBytes: 2_000_000,
        maxVideoBytes: 300_000_000,
        // The video blob's `accept`: a MOV is refused before it is sent.
        videoTypes: ["video/mp4"],
        // Each image's and the video's `alt` (app.bsky.embed.images#image, app.bsky.embed.video). The lexicons
        // set no length; 2,000 is the most the Bluesky app lets a person write (MAX_ALT_TEXT in
        // bluesky-social/social-app), so what Herald sends reads the same there.
        altText: { max: 2_000 }
      },
      // Follow-ups are replies chained under the post, each a post with the same limits. Bluesky sets no
      // length for a chain; Herald keeps X's 25.
      thread: { maxPosts: 25, maxLength: maxGraphemes },
      textOrMedia: true,
      // A first comment is the account's reply to its own post.
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
  // A session's access JWT lasts about 2 hours and is renewed with its refresh JWT (`refreshSession`).
  refresh: true,
  reconcile: true,
  // Each reply after the post (thread, first comment) is its own step, answered `Processing` between.
  asyncProcessing: true
}

/**
 * Bluesky's API has no numbered versions: every call is an XRPC method named by its Lexicon
 * (`com.atproto.repo.createRecord`, `app.bsky.feed.post`), in Lexicon language version 1, with no
 * deprecation announced for the methods the adapter calls.
 */
export const api = {
  version: "lexicon 1",
  sunset: null,
  source: "https://atproto.com/specs/lexicon",
  checked: "2026-12-02"
} as const satisfies ApiVersion.ApiVersion
