import { PublishError } from "@herald/adapter-kit"
import { Option, Schema } from "effect"

/**
 * Threads' error answers mapped to Herald's reasons, in one table. Threads answers with Graph error objects
 * (`{ error: { message, type, code, error_subcode, is_transient, error_user_msg } }`); code 190 is a token
 * that no longer works (subcode 463: expired), 4/17/32/613 are rate limits, 1/2 and `is_transient` are
 * passing faults (https://developers.facebook.com/docs/graph-api/guides/error-handling,
 * https://developers.facebook.com/documentation/threads/overview).
 */

const network = "threads"

const GraphError = Schema.Struct({
  error: Schema.Struct({
    message: Schema.optional(Schema.String),
    code: Schema.optional(Schema.Number),
    error_subcode: Schema.optional(Schema.Number),
    is_transient: Schema.optional(Schema.Boolean),
    error_user_msg: Schema.optional(Schema.String)
  })
})

/** What the table looks at in a failed answer. */
export interface Wire {
  readonly status: number
  readonly code: number | undefined
  readonly subcode: number | undefined
  readonly transient: boolean
  readonly message: string
}

type ReasonTag = PublishError.Reason["_tag"]

const rateLimitCodes = new Set([4, 17, 32, 613])
const transientCodes = new Set([1, 2])
/** The person must grant a missing permission (code 10, 200 to 299): only a new consent fixes it. */
const isPermissionError = (code: number | undefined) => code !== undefined && (code === 10 || (code >= 200 && code < 300))

/** First matching row wins. */
export const table: ReadonlyArray<{ readonly when: (wire: Wire) => boolean; readonly reason: ReasonTag }> = [
  { when: (wire) => wire.code === 190 && wire.subcode === 463, reason: "AuthExpired" },
  // Revoked, password changed, app removed, or a token that cannot be parsed.
  { when: (wire) => wire.code === 190, reason: "NeedsReconnect" },
  { when: (wire) => isPermissionError(wire.code), reason: "NeedsReconnect" },
  { when: (wire) => wire.status === 429 || (wire.code !== undefined && rateLimitCodes.has(wire.code)), reason: "RateLimited" },
  {
    when: (wire) => wire.transient || (wire.code !== undefined && transientCodes.has(wire.code)) || wire.status >= 500,
    reason: "Transient"
  },
  // Invalid parameters, too many links, restricted actions (subcode 2207051), media that cannot be fetched.
  { when: () => true, reason: "Rejected" }
]

/** Meta sends no retry-after; its windows are rolling, so wait a few minutes. */
const defaultRetryAfterMs = 5 * 60_000

export const wire = (status: number, body: unknown): Wire => {
  const error = Option.getOrUndefined(Schema.decodeUnknownOption(GraphError)(body))?.error
  return {
    status,
    code: error?.code,
    subcode: error?.error_subcode,
    transient: error?.is_transient === true,
    message: error?.error_user_msg ?? error?.message ?? `HTTP ${status}`
  }
}

export const toPublishError = (failure: Wire): PublishError.PublishError => {
  const reason = table.find((row) => row.when(failure))?.reason ?? "Rejected"
  return PublishError.of(network, reason, failure.message, defaultRetryAfterMs)
}

/** A call that never got an answer: a publish may have gone through, so it must not be resent blindly. */
export const lost = (create: boolean, message: string): PublishError.PublishError =>
  create
    ? PublishError.outcomeUnknown(network, `Threads' answer was lost (${message}); the post may exist`)
    : PublishError.transient(network, message)
