import type { Adapter, ApiVersion, Limits } from "@herald/adapter-kit"

/**
 * Mastodon's limits as data: what a stock instance allows (https://docs.joinmastodon.org/user/posting/), which
 * `GET /api/v1/networks` publishes. Each instance may set its own (glitch-soc and many forks raise the 500
 * characters), so posts of an account are checked against its instance's own limits, read from
 * `GET /api/v2/instance` and cached (`limitsOf`, the adapter's `limitsFor`).
 *
 * Text is counted the way Mastodon counts it (the kit's `mastodon` counter): every URL as 23 characters,
 * a mention `@user@domain` as `@user`, the rest in grapheme clusters
 * (https://docs.joinmastodon.org/user/posting/#text). The content warning counts within the same limit, as
 * it is, in grapheme clusters (its links are not shortened): Mastodon's StatusLengthValidator measures
 * `[status.spoiler_text, countable_text(status.text)].join` (app/validators/status_length_validator.rb,
 * read 2026-12-02). The warning goes on every status of the post, so every one is held to it.
 */

/** A stock instance: 500 characters, 4 media (images, or one video), 16 MB images, 99 MB videos. */
export const defaults = {
  maxCharacters: 500,
  maxMedia: 4,
  imageBytes: 16 * 1024 * 1024,
  videoBytes: 99 * 1024 * 1024,
  /** Alt text (`description` on `POST /api/v2/media`): 1,500 characters on a stock instance. */
  altCharacters: 1_500
} as const

/** What an instance says of itself that Herald's checks use (`InstanceLimits` from `/api/v2/instance`). */
export interface InstanceLimits {
  readonly maxCharacters: number
  readonly maxMedia: number
  readonly imageBytes: number
  readonly videoBytes: number
  readonly altCharacters: number
}

/** The limits of an instance with these settings, in the kit's shape. */
export const limitsOf = (instance: InstanceLimits): Limits.Limits => ({
  forms: {
    post: {
      text: {
        max: instance.maxCharacters,
        counter: "mastodon",
        countsWith: { setting: "spoilerText", name: "content warning", counter: "graphemes" }
      },
      media: {
        minItems: 0,
        maxItems: instance.maxMedia,
        maxPhotos: instance.maxMedia,
        // A video (or audio) is attached alone (https://docs.joinmastodon.org/user/posting/#attachments).
        maxVideos: 1,
        mixing: false,
        maxPhotoBytes: instance.imageBytes,
        maxVideoBytes: instance.videoBytes,
        altText: { max: instance.altCharacters }
      },
      // Follow-ups are replies chained under the status, each a status with the same limits. Mastodon sets
      // no length for a chain; Herald keeps X's 25.
      thread: { maxPosts: 25, maxLength: instance.maxCharacters },
      textOrMedia: true,
      // A first comment is the account's reply to its own status.
      firstComment: true
    }
  }
})

export const limits = limitsOf(defaults)

export const capabilities: Adapter.Capabilities = {
  text: true,
  photos: true,
  videos: true,
  thread: true,
  firstComment: true,
  // Mastodon's access tokens do not expire and it issues no refresh tokens
  // (https://docs.joinmastodon.org/methods/oauth/#token): a revoked token means connecting again.
  refresh: false,
  reconcile: true,
  // Media are processed after upload (`202`, polled), and each reply after the status is its own step.
  asyncProcessing: true
}

/**
 * Mastodon versions its API per method, not as a whole: each method's "Version history" says when it came
 * and whether it is deprecated (`POST /api/v1/media` is, in favour of `/api/v2/media`, which the adapter
 * calls). The adapter calls `/api/v1` and `/api/v2` methods none of which is deprecated (read 2026-12-02).
 */
export const api = {
  version: "v1 and v2 methods",
  sunset: null,
  source: "https://docs.joinmastodon.org/methods/media/",
  checked: "2026-12-02"
} as const satisfies ApiVersion.ApiVersion
