import { PublishError } from "@herald/adapter-kit"
import { Option, Schema } from "effect"

/**
 * Bluesky's error answers mapped to Herald's reasons, in one table. Every XRPC error is
 * `{ "error": "<Name>", "message": "..." }` (https://atproto.com/specs/xrpc#error-responses): `ExpiredToken`
 * asks for `refreshSession`; `InvalidToken`, `AuthenticationRequired` and a taken-down or deactivated account
 * need a new sign-in; 429 `RateLimitExceeded` comes with `ratelimit-reset` in epoch seconds
 * (https://docs.bsky.app/docs/advanced-guides/rate-limits); 5xx are passing faults; the rest (lexicon
 * validation `InvalidRequest`, `BlobTooLarge`, `RecordNotFound`) are refused for good.
 */

const network = "bluesky"

const XrpcError = Schema.Struct({ error: Schema.optional(Schema.String), message: Schema.optional(Schema.String) })

/** What the table looks at in a failed answer. */
export interface Wire {
  readonly status: number
  readonly error: string | undefined
  readonly message: string
  /** `ratelimit-reset`, epoch seconds. */
  readonly resetAt: number | undefined
}

type ReasonTag = PublishError.Reason["_tag"]

const reconnectErrors = new Set(["InvalidToken", "AuthenticationRequired", "AccountTakedown", "AccountDeactivated", "AuthMissing"])

/** First matching row wins. */
export const table: ReadonlyArray<{ readonly when: (wire: Wire) => boolean; readonly reason: ReasonTag }> = [
  { when: (wire) => wire.error === "ExpiredToken", reason: "AuthExpired" },
  { when: (wire) => wire.error !== undefined && reconnectErrors.has(wire.error), reason: "NeedsReconnect" },
  { when: (wire) => wire.status === 401, reason: "NeedsReconnect" },
  { when: (wire) => wire.status === 429 || wire.error === "RateLimitExceeded", reason: "RateLimited" },
  { when: (wire) => wire.status >= 500, reason: "Transient" },
  { when: () => true, reason: "Rejected" }
]

/** Without a reset time, wait the createSession window's length (5 minutes). */
const defaultRetryAfterMs = 5 * 60_000

export const wire = (status: number, body: unknown, resetHeader: string | undefined): Wire => {
  const error = Option.getOrUndefined(Schema.decodeUnknownOption(XrpcError)(body))
  const reset = resetHeader === undefined ? Number.NaN : Number(resetHeader)
  return {
    status,
    error: error?.error,
    message: error?.message ?? error?.error ?? `HTTP ${status}`,
    resetAt: Number.isFinite(reset) ? reset : undefined
  }
}

/** `now` (epoch milliseconds) turns `ratelimit-reset` into a wait. */
export const toPublishError = (failure: Wire, now: number): PublishError.PublishError => {
  const reason = table.find((row) => row.when(failure))?.reason ?? "Rejected"
  const retryAfterMs = failure.resetAt === undefined ? defaultRetryAfterMs : Math.max(1000, failure.resetAt * 1000 - now)
  return PublishError.of(network, reason, failure.message, retryAfterMs)
}

/**
 * A refused `refreshSession`: the refresh token expired, was used already or was revoked, so only a new
 * sign-in helps (networks.md, "Needs reconnect" signals); a rate limit or fault stays what it is.
 */
export const refreshRefused = (error: PublishError.PublishError): PublishError.PublishError =>
  error.reason._tag === "AuthExpired" || error.reason._tag === "Rejected"
    ? PublishError.needsReconnect(network, `Bluesky refused to renew the session (${error.reason.message}); sign in again`)
    : error

/** A call that never got an answer: a post may have been made, so it must not be resent blindly. */
export const lost = (create: boolean, message: string): PublishError.PublishError =>
  create
    ? PublishError.outcomeUnknown(network, `Bluesky's answer was lost (${message}); the post may exist`)
    : PublishError.transient(network, message)
