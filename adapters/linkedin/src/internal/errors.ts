import { Option, Schema } from "effect"
import { type NetworkClient, PublishError } from "@herald/adapter-kit"

// LinkedIn's error answers mapped onto Herald's reasons, in one table. The REST API answers
// `{ status, serviceErrorCode, code, message }`; the OAuth endpoints answer `{ error, error_description }`.
// https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/error-handling

export const network = "linkedin"

/** Minimal and lenient: any field may be missing, and other fields are ignored. */
const ErrorAnswer = Schema.Struct({
  status: Schema.optionalKey(Schema.Number),
  serviceErrorCode: Schema.optionalKey(Schema.Number),
  code: Schema.optionalKey(Schema.String),
  message: Schema.optionalKey(Schema.String),
  error: Schema.optionalKey(Schema.String),
  error_description: Schema.optionalKey(Schema.String)
})
type ErrorAnswer = typeof ErrorAnswer.Type

/**
 * LinkedIn sends no rate-limit headers and no Retry-After; its quotas are daily and reset at midnight UTC.
 * A minute lets short bursts pass without hammering a spent quota.
 * https://learn.microsoft.com/en-us/linkedin/shared/api-guide/concepts/rate-limits
 */
export const defaultRetryAfterMs = 60_000

type ReasonTag = "RateLimited" | "Transient" | "Rejected" | "AuthExpired" | "NeedsReconnect"

interface Rule {
  /** An exact status, or a whole class. */
  readonly status: number | "4xx" | "5xx"
  /** LinkedIn's `code` (REST) or `error` (OAuth), when the rule needs it. */
  readonly code?: string
  readonly serviceErrorCode?: number
  readonly reason: ReasonTag
  /** Put before LinkedIn's own message, so a person knows what to do. */
  readonly explain: string
}

/** First matching rule wins. */
const table: ReadonlyArray<Rule> = [
  { status: 401, code: "REVOKED_ACCESS_TOKEN", reason: "NeedsReconnect", explain: "the member revoked Herald's access" },
  { status: 401, serviceErrorCode: 65601, reason: "NeedsReconnect", explain: "the member revoked Herald's access" },
  { status: 401, reason: "AuthExpired", explain: "the access token is no longer valid" },
  // An expired or revoked refresh token, or a used-up authorization code.
  { status: 400, code: "invalid_grant", reason: "NeedsReconnect", explain: "LinkedIn refused the grant" },
  { status: 403, reason: "Rejected", explain: "LinkedIn refused access (check the app's products and scopes)" },
  // Duplicate content ("Content is a duplicate of urn:li:share:…") and invalid posts.
  { status: 422, reason: "Rejected", explain: "LinkedIn refused the post" },
  // A missing or retired LinkedIn-Version header: https://learn.microsoft.com/en-us/linkedin/marketing/versioning
  { status: 426, reason: "Rejected", explain: "the LinkedIn-Version Herald sends is no longer supported" },
  { status: 408, reason: "Transient", explain: "LinkedIn timed out" },
  { status: 429, reason: "RateLimited", explain: "over LinkedIn's daily rate limit" },
  { status: "5xx", reason: "Transient", explain: "LinkedIn is having trouble" },
  { status: "4xx", reason: "Rejected", explain: "LinkedIn refused the request" }
]

const statusMatches = (rule: Rule, status: number): boolean =>
  rule.status === "5xx" ? status >= 500 : rule.status === "4xx" ? status >= 400 && status < 500 : rule.status === status

const matches = (rule: Rule, status: number, answer: ErrorAnswer): boolean =>
  statusMatches(rule, status) &&
  (rule.code === undefined || rule.code === (answer.code ?? answer.error)) &&
  (rule.serviceErrorCode === undefined || rule.serviceErrorCode === answer.serviceErrorCode)

const fallback: Rule = { status: "5xx", reason: "Transient", explain: "LinkedIn answered unexpectedly" }

/** The `PublishError` for an error answer (any status of 400 or more), its body decoded leniently. */
export const refusal = ({ body, status }: NetworkClient.Refusal): PublishError.PublishError => {
  const answer = Option.getOrElse(Schema.decodeUnknownOption(ErrorAnswer)(body), (): ErrorAnswer => ({}))
  const rule = table.find((candidate) => matches(candidate, status, answer)) ?? fallback
  const detail = answer.message ?? answer.error_description ?? answer.error ?? `HTTP ${status}`
  const message = `${rule.explain}: ${detail}`
  return PublishError.of(network, rule.reason, message, defaultRetryAfterMs)
}
