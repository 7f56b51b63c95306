import { type NetworkClient, PublishError } from "@herald/adapter-kit"
import { Option, Schema } from "effect"

/**
 * Bluesky's error answers mapped to Herald's reasons, in one table. Every XRPC error is
 * `{ "error": "<Name>", "message": "..." }` (https://atproto.com/specs/xrpc#error-responses): `ExpiredToken`
 * asks for `refreshSession`; `InvalidToken`, `AuthenticationRequired` and a taken-down or deactivated account
 * need a new sign-in; 429 `RateLimitExceeded` comes with `ratelimit-reset` in epoch seconds
 * (https://docs.bsky.app/docs/advanced-guides/rate-limits), which the kit turns into the refusal's wait; 5xx
 * are passing faults; the rest (lexicon validation `InvalidRequest`, `BlobTooLarge`, `RecordNotFound`) are
 * refused for good.
 */

const network = "bluesky"

const XrpcError = Schema.Struct({ error: Schema.optional(Schema.String), message: Schema.optional(Schema.String) })
type XrpcError = typeof XrpcError.Type

const reconnectErrors = new Set(["InvalidToken", "AuthenticationRequired", "AccountTakedown", "AccountDeactivated", "AuthMissing"])

/** First matching row wins; `error` is the answer's XRPC error, `{}` when its body is not one. */
const table: ReadonlyArray<{
  readonly when: (refusal: NetworkClient.Refusal, error: XrpcError) => boolean
  readonly reason: PublishError.ReasonTag
}> = [
  { when: (_, error) => error.error === "ExpiredToken", reason: "AuthExpired" },
  { when: (_, error) => error.error !== undefined && reconnectErrors.has(error.error), reason: "NeedsReconnect" },
  { when: (refusal) => refusal.status === 401, reason: "NeedsReconnect" },
  { when: (refusal, error) => refusal.status === 429 || error.error === "RateLimitExceeded", reason: "RateLimited" },
  { when: (refusal) => refusal.status >= 500, reason: "Transient" },
  { when: () => true, reason: "Rejected" }
]

/** Without a reset time, wait the createSession window's length (5 minutes). */
const defaultRetryAfterMs = 5 * 60_000

/** The table applied to a refused answer (`NetworkClient`'s `refusal`). */
export const refusal = (refused: NetworkClient.Refusal): PublishError.PublishError => {
  const error = Option.getOrElse(Schema.decodeUnknownOption(XrpcError)(refused.body), (): XrpcError => ({}))
  const reason = table.find((row) => row.when(refused, error))?.reason ?? "Rejected"
  // A reset already past still waits a second, so a retry does not land in the same window.
  const retryAfterMs = refused.retryAfterMs === undefined ? defaultRetryAfterMs : Math.max(1000, refused.retryAfterMs)
  return PublishError.of(network, reason, error.message ?? error.error ?? `HTTP ${refused.status}`, retryAfterMs)
}

/**
 * A refused `refreshSession`: the refresh token expired, was used already or was revoked, so only a new
 * sign-in helps (networks.md, "Needs reconnect" signals); a rate limit or fault stays what it is.
 */
export const refreshRefused = (error: PublishError.PublishError): PublishError.PublishError =>
  error.reason._tag === "AuthExpired" || error.reason._tag === "Rejected"
    ? PublishError.needsReconnect(network, `Bluesky refused to renew the session (${error.reason.message}); sign in again`)
    : error
