import { type NetworkClient, PublishError } from "@herald/adapter-kit"
import { Option, Schema } from "effect"

/**
 * Mastodon's error answers mapped to Herald's reasons, in one table. Every error is
 * `{ "error": "...", "error_description"?: "..." }` (https://docs.joinmastodon.org/entities/Error/); a 401 is a
 * token the instance no longer takes: "The access token expired" or, when revoked or unknown, a new
 * connection (tokens have no refresh); 429 comes with `X-RateLimit-Reset`, an ISO 8601 time
 * (https://docs.joinmastodon.org/api/rate-limits/); 5xx and 503 while an instance restarts are passing
 * faults; 422 (validation: too long, unknown media), 404 and 403 are refused for good.
 */

const network = "mastodon"

const ErrorBody = Schema.Struct({ error: Schema.optional(Schema.String), error_description: Schema.optional(Schema.String) })

/** What the table looks at in a failed answer. */
interface Wire {
  readonly status: number
  readonly message: string
}

type ReasonTag = PublishError.Reason["_tag"]

/**
 * A refused token is told apart only by its words: Mastodon answers every 401 as `{ "error": <text> }` with no
 * code (https://docs.joinmastodon.org/entities/Error/), the text being Doorkeeper's `invalid_token` message
 * (https://github.com/doorkeeper-gem/doorkeeper/blob/main/config/locales/en.yml, `doorkeeper.errors.messages
 * .invalid_token`; both read 2026-12-03). Matched whole, so other words are not taken for these.
 */
export const invalidToken = {
  expired: "The access token expired",
  revoked: "The access token was revoked",
  unknown: "The access token is invalid"
} as const

/** First matching row wins. */
const table: ReadonlyArray<{ readonly when: (wire: Wire) => boolean; readonly reason: ReasonTag }> = [
  // Doorkeeper's `invalid_token.expired`, see `invalidToken`.
  { when: (wire) => wire.status === 401 && wire.message === invalidToken.expired, reason: "AuthExpired" },
  // Doorkeeper's `invalid_token.revoked` and `.unknown`, see `invalidToken`: the person took Herald's access
  // back, or the instance forgot the token. Mastodon's tokens have no refresh: only a new connection helps.
  { when: (wire) => wire.status === 401 && wire.message === invalidToken.revoked, reason: "NeedsReconnect" },
  { when: (wire) => wire.status === 401 && wire.message === invalidToken.unknown, reason: "NeedsReconnect" },
  // Any other 401 ("This method requires an authenticated user"): no token it takes.
  { when: (wire) => wire.status === 401, reason: "NeedsReconnect" },
  { when: (wire) => wire.status === 429, reason: "RateLimited" },
  { when: (wire) => wire.status >= 500 || wire.status === 408, reason: "Transient" },
  { when: () => true, reason: "Rejected" }
]

/** Without a reset time, wait Mastodon's rate-limit window (5 minutes). */
const defaultRetryAfterMs = 5 * 60_000

/** The rate-limit header: `X-RateLimit-Reset`, an ISO 8601 time (https://docs.joinmastodon.org/api/rate-limits/). */
export const resetHeader: NetworkClient.ResetHeader = { name: "x-ratelimit-reset", form: "iso-8601" }

/** What the table reads of a refusal the kit hands over. */
const wire = (refusal: NetworkClient.Refusal): Wire => {
  const error = Option.getOrUndefined(Schema.decodeUnknownOption(ErrorBody)(refusal.body))
  return { status: refusal.status, message: error?.error ?? error?.error_description ?? `HTTP ${refusal.status}` }
}

/** The error table, as `NetworkClient`'s `refusal`. */
export const refusal = (refused: NetworkClient.Refusal): PublishError.PublishError => {
  const failure = wire(refused)
  const reason = table.find((row) => row.when(failure))?.reason ?? "Rejected"
  return PublishError.of(network, reason, failure.message, refused.retryAfterMs ?? defaultRetryAfterMs)
}
