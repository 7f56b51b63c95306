import type { Adapter, Limits } from "@herald/adapter-kit"
import { maxBytes } from "./internal/richText.ts"

/**
 * Bluesky's limits as data (networks.md §8.3, from the app.bsky.feed.post and embed lexicons,
 * https://github.com/bluesky-social/atproto/tree/main/lexicons/app/bsky): text of at most 3,000 UTF-8
 * bytes and 300 graphemes; up to 4 images or one video (3 minutes), never both. The kit's counters have no
 * graphemes yet (issue 16 point 5), so the byte limit is the data here and the adapter's `validate` adds
 * the grapheme rule (`internal/richText.ts`). Text-only posts are allowed; a post needs text or media.
 */
export const limits = {
  forms: {
    post: {
      text: { max: maxBytes, counter: "utf8-bytes" },
      media: {
        minItems: 0,
        maxItems: 4,
        maxPhotos: 4,
        maxVideos: 1,
        mixing: false,
        videoDurationMs: { min: 0, max: 180_000 }
      },
      // Follow-ups are replies chained under the post, each a post with the same limits. Bluesky sets no
      // length for a chain; Herald keeps X's 25.
      thread: { maxPosts: 25, maxLength: maxBytes },
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
