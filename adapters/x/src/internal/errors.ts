import { PublishError } from "@herald/adapter-kit"
import { Option, Schema } from "effect"

/**
 * X's error answers mapped to Herald's reasons, in one table. The API answers with problem objects
 * (`{ title, detail, type: "https://api.x.com/2/problems/<kind>" }`), the token endpoint with OAuth errors
 * (`{ error, error_description }`), and rate limits carry `x-rate-limit-reset` (epoch seconds).
 * https://docs.x.com/x-api/fundamentals/response-codes-and-errors, https://docs.x.com/fundamentals/rate-limits
 */

const network = "x"

/** Every error body X sends, leniently: a problem, a v1-style `errors` list, or an OAuth error. */
const ErrorBody = Schema.Struct({
  title: Schema.optional(Schema.String),
  detail: Schema.optional(Schema.String),
  type: Schema.optional(Schema.String),
  error: Schema.optional(Schema.String),
  error_description: Schema.optional(Schema.String),
  errors: Schema.optional(Schema.Array(Schema.Struct({
    message: Schema.optional(Schema.String),
    detail: Schema.optional(Schema.String),
    title: Schema.optional(Schema.String),
    type: Schema.optional(Schema.String)
  })))
})

/** A 2xx answer that carries `errors` instead of `data`: X refused (part of) the call. */
export const hasErrors = (body: unknown): boolean =>
  (Option.getOrUndefined(Schema.decodeUnknownOption(ErrorBody)(body))?.errors?.length ?? 0) > 0

/** What the table looks at in a failed answer. */
export interface Wire {
  readonly status: number
  /** The problem kind: the last segment of `type` (`usage-capped`), or the OAuth `error` code. */
  readonly kind: string | undefined
  /** X's own words, for the person reading the failure. */
  readonly message: string
  /** When the rate-limit window resets (epoch milliseconds), from `x-rate-limit-reset`. */
  readonly resetAtMillis: number | undefined
}

type ReasonTag = PublishError.Reason["_tag"]

/** OAuth error codes of the token endpoint that mean the grant is gone (RFC 6749 section 5.2). */
const grantGone = new Set(["invalid_grant", "invalid_request", "unauthorized_client", "invalid_client"])

/** First matching row wins. */
export const table: ReadonlyArray<{ readonly when: (wire: Wire) => boolean; readonly reason: ReasonTag }> = [
  { when: (wire) => wire.status >= 500, reason: "Transient" },
  // A monthly or credit cap, not a 15-minute window: waiting minutes will not help.
  { when: (wire) => wire.status === 429 && wire.kind === "usage-capped", reason: "Rejected" },
  { when: (wire) => wire.status === 429, reason: "RateLimited" },
  // The token endpoint refusing a code or refresh token (also as 401 for client errors): connect again.
  { when: (wire) => wire.kind !== undefined && grantGone.has(wire.kind), reason: "NeedsReconnect" },
  // A token of a kind the endpoint does not take (app-only or OAuth 1 where a user's OAuth 2 token is needed):
  // only a new grant fixes it. X names it by the problem's type, answered with 403: `UnsupportedAuthenticationProblem`,
  // `https://api.twitter.com/2/problems/unsupported-authentication`, in X's OpenAPI document 2.159
  // (https://github.com/xdevplatform/xdk/blob/main/latest-openapi.json, read 2026-12-03).
  { when: (wire) => wire.kind === "unsupported-authentication", reason: "NeedsReconnect" },
  // X answers 401 alike for expired and revoked tokens; a refresh tells them apart.
  { when: (wire) => wire.status === 401, reason: "AuthExpired" },
  // Duplicate content, video too long, reply restrictions, suspended users, bad media ids.
  { when: (wire) => wire.status >= 400, reason: "Rejected" }
]

/** How long to wait when X did not say: one short window. */
const defaultRetryAfterMs = 60_000

/** Reads a failed answer into a `Wire`. */
export const wire = (
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string | undefined>>
): Wire => {
  const decoded = Option.getOrUndefined(Schema.decodeUnknownOption(ErrorBody)(body))
  const first = decoded?.errors?.[0]
  const type = decoded?.type ?? first?.type
  const reset = Number(headers["x-rate-limit-reset"])
  return {
    status,
    kind: type?.split("/").pop() ?? decoded?.error,
    message: decoded?.detail ?? first?.detail ?? first?.message ?? decoded?.error_description ?? decoded?.title ??
      first?.title ?? `HTTP ${status}`,
    resetAtMillis: Number.isFinite(reset) && reset > 0 ? reset * 1000 : undefined
  }
}

/** The table applied to one failed answer. */
export const toPublishError = (failure: Wire, nowMillis: number): PublishError.PublishError => {
  const reason = table.find((row) => row.when(failure))?.reason ?? "Rejected"
  const message = failure.message
  const retryAfterMs = failure.resetAtMillis === undefined
    ? defaultRetryAfterMs
    : Math.max(1000, failure.resetAtMillis - nowMillis)
  return PublishError.of(network, reason, message, retryAfterMs)
}

/** A call that never got an answer: a create may have gone through, so it must not be resent blindly. */
export const lost = (create: boolean, message: string): PublishError.PublishError =>
  create
    ? PublishError.outcomeUnknown(network, `X's answer was lost (${message}); the post may exist`)
    : PublishError.transient(network, message)
