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

/**
 * What the error messages of a container Threads could not prepare mean, in words a person can act on
 * (https://developers.facebook.com/docs/threads/troubleshooting, read 2026-12-03, lists them).
 */
const containerFailures: Readonly<Record<string, string>> = {
  FAILED_DOWNLOADING_VIDEO: "Threads could not download the video",
  FAILED_PROCESSING_AUDIO: "Threads could not process the video's sound",
  FAILED_PROCESSING_VIDEO: "Threads could not process the video",
  INVALID_ASPEC_RATIO: "Threads does not take the video's aspect ratio (0.01:1 to 10:1)",
  INVALID_BIT_RATE: "Threads does not take the video's bit rate",
  INVALID_DURATION: "Threads does not take the video's length: a video may be at most 5 minutes",
  INVALID_FRAME_RATE: "Threads does not take the video's frame rate (23 to 60 fps)",
  INVALID_AUDIO_CHANNELS: "Threads does not take the video's audio channels",
  INVALID_AUDIO_CHANNEL_LAYOUT: "Threads does not take the video's audio channel layout"
}

/** The words for a container that ended `status` (ERROR, EXPIRED) with `message`, Threads' code kept after them. */
export const containerFailure = (message: string | undefined, what: string, status: string): string => {
  const known = message === undefined || !Object.hasOwn(containerFailures, message) ? undefined : containerFailures[message]
  return known !== undefined ? `${known} (${message})` : message ?? `Threads could not prepare ${what} (${status})`
}
