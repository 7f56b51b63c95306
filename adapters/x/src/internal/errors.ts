import { type NetworkClient, PublishError } from "@herald/adapter-kit"
import { Option, Schema } from "effect"

/**
 * X's error answers mapped to Herald's reasons, in one table. The API answers with problem objects
 * (`{ title, detail, type: "https://api.x.com/2/problems/<kind>" }`), the token endpoint with OAuth errors
 * (`{ error, error_description }`), and rate limits carry `x-rate-limit-reset` (epoch seconds).
 * https://docs.x.com/x-api/fundamentals/response-codes-and-errors, https://docs.x.com/fundamentals/rate-limits
 */

const network = "x"

/** When X's rate-limit window ends: epoch seconds, read by the kit into the refusal's wait. */
export const resetHeader: NetworkClient.ResetHeader = { name: "x-rate-limit-reset", form: "epoch-seconds" }

/** Every error body X sends, leniently: a problem, a v1-style `errors` list, or an OAuth error. */
const ErrorBody = Schema.Struct({
  title: Schema.optional(Schema.String),
  detail: Schema.optional(Schema.String),
  type: Schema.optional(Schema.String),
  error: Schema.optional(Schema.String),
  error_description: Schema.optional(Schema.String),
  data: Schema.optional(Schema.Unknown),
  errors: Schema.optional(Schema.Array(Schema.Struct({
    message: Schema.optional(Schema.String),
    detail: Schema.optional(Schema.String),
    title: Schema.optional(Schema.String),
    type: Schema.optional(Schema.String)
  })))
})

/** What the table decides on: the status and the problem's kind. */
interface Problem {
  readonly status: number
  /** The problem kind: the last segment of `type` (`usage-capped`), or the OAuth `error` code. */
  readonly kind: string | undefined
}

type ReasonTag = PublishError.Reason["_tag"]

/** OAuth error codes of the token endpoint that mean the grant is gone (RFC 6749 section 5.2). */
const grantGone = new Set(["invalid_grant", "invalid_request", "unauthorized_client", "invalid_client"])

/** First matching row wins. */
const table: ReadonlyArray<{ readonly when: (problem: Problem) => boolean; readonly reason: ReasonTag }> = [
  { when: (problem) => problem.status >= 500, reason: "Transient" },
  // A monthly or credit cap, not a 15-minute window: waiting minutes will not help.
  { when: (problem) => problem.status === 429 && problem.kind === "usage-capped", reason: "Rejected" },
  { when: (problem) => problem.status === 429, reason: "RateLimited" },
  // The token endpoint refusing a code or refresh token (also as 401 for client errors): connect again.
  { when: (problem) => problem.kind !== undefined && grantGone.has(problem.kind), reason: "NeedsReconnect" },
  // A token of a kind the endpoint does not take (app-only or OAuth 1 where a user's OAuth 2 token is needed):
  // only a new grant fixes it. X names it by the problem's type, answered with 403: `UnsupportedAuthenticationProblem`,
  // `https://api.twitter.com/2/problems/unsupported-authentication`, in X's OpenAPI document 2.159
  // (https://github.com/xdevplatform/xdk/blob/main/latest-openapi.json, read 2026-12-03).
  { when: (problem) => problem.kind === "unsupported-authentication", reason: "NeedsReconnect" },
  // X answers 401 alike for expired and revoked tokens; a refresh tells them apart.
  { when: (problem) => problem.status === 401, reason: "AuthExpired" },
  // Duplicate content, video too long, reply restrictions, suspended users, bad media ids.
  { when: (problem) => problem.status >= 400, reason: "Rejected" }
]

/** How long to wait when X did not say: one short window. */
const defaultRetryAfterMs = 60_000

const decoded = (body: unknown) => Option.getOrUndefined(Schema.decodeUnknownOption(ErrorBody)(body))

/** The table applied to one refused answer. */
export const refusal = (answer: NetworkClient.Refusal): PublishError.PublishError => {
  const body = decoded(answer.body)
  const first = body?.errors?.[0]
  const type = body?.type ?? first?.type
  const problem: Problem = { status: answer.status, kind: type?.split("/").pop() ?? body?.error }
  const reason = table.find((row) => row.when(problem))?.reason ?? "Rejected"
  // X's own words, for the person reading the failure.
  const message = body?.detail ?? first?.detail ?? first?.message ?? body?.error_description ?? body?.title ??
    first?.title ?? `HTTP ${answer.status}`
  const retryAfterMs = answer.retryAfterMs === undefined ? defaultRetryAfterMs : Math.max(1000, answer.retryAfterMs)
  return PublishError.of(network, reason, message, retryAfterMs)
}

/** A 2xx that carries `errors` and no `data`: X refused the call, read as a 400 through the same table. */
export const refusedIn = (answer: NetworkClient.Refusal): PublishError.PublishError | undefined => {
  const body = decoded(answer.body)
  return (body?.errors?.length ?? 0) > 0 && body?.data === undefined ? refusal({ ...answer, status: 400 }) : undefined
}
