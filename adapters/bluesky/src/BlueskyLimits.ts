import type { Adapter, ApiVersion, Limits } from "@herald/adapter-kit"
import { maxBytes, maxGraphemes } from "./internal/richText.ts"

/**
 * Bluesky's limits as data (networks.md §8.3, from the app.bsky.feed.post and embed lexicons,
 * https://github.com/bluesky-social/atproto/tree/main/lexicons/app/bsky): text of at most 300 graphemes
 * and 3,000 UTF-8 bytes; up to 4 images of at most 1,000,000 bytes each (app.bsky.embed.images `maxSize`)
 * or one video (3 minutes, 100 MB: https://docs.bsky.app/docs/tutorials/video), never both. Text-only posts
 * are allowed; a post needs text or media.
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
        maxPhotoBytes: 1_000_000,
        maxVideoBytes: 100_000_000,
        // Each image's `alt` (app.bsky.embed.images#image). The lexicon sets no length; 2,000 is the most the
        // Bluesky app lets a person write (MAX_ALT_TEXT in bluesky-social/social-app), so what Herald sends
        // reads the same there.
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
