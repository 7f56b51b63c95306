import { type NetworkClient, PublishError } from "@herald/adapter-kit"
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

type GraphError = (typeof GraphError.Type)["error"]

const rateLimitCodes = new Set([4, 17, 32, 613])
const transientCodes = new Set([1, 2])
/** The person must grant a missing permission (code 10, 200 to 299): only a new consent fixes it. */
const isPermissionError = (code: number | undefined) => code !== undefined && (code === 10 || (code >= 200 && code < 300))

/** First matching row wins; `error` is the answer's Graph error object, `{}` when its body holds none. */
const table: ReadonlyArray<{
  readonly when: (refusal: NetworkClient.Refusal, error: GraphError) => boolean
  readonly reason: PublishError.ReasonTag
}> = [
  { when: (_, error) => error.code === 190 && error.error_subcode === 463, reason: "AuthExpired" },
  // Revoked, password changed, app removed, or a token that cannot be parsed.
  { when: (_, error) => error.code === 190, reason: "NeedsReconnect" },
  { when: (_, error) => isPermissionError(error.code), reason: "NeedsReconnect" },
  {
    when: (refusal, error) => refusal.status === 429 || (error.code !== undefined && rateLimitCodes.has(error.code)),
    reason: "RateLimited"
  },
  {
    when: (refusal, error) =>
      error.is_transient === true || (error.code !== undefined && transientCodes.has(error.code)) || refusal.status >= 500,
    reason: "Transient"
  },
  // Invalid parameters, too many links, restricted actions (subcode 2207051), media that cannot be fetched.
  { when: () => true, reason: "Rejected" }
]

/** Meta sends no retry-after; its windows are rolling, so wait a few minutes. */
const defaultRetryAfterMs = 5 * 60_000

/** The table applied to a refused answer (`NetworkClient`'s `refusal`). */
export const refusal = (refused: NetworkClient.Refusal): PublishError.PublishError => {
  const error = Option.getOrUndefined(Schema.decodeUnknownOption(GraphError)(refused.body))?.error ?? {}
  const reason = table.find((row) => row.when(refused, error))?.reason ?? "Rejected"
  return PublishError.of(
    network,
    reason,
    error.error_user_msg ?? error.message ?? `HTTP ${refused.status}`,
    refused.retryAfterMs ?? defaultRetryAfterMs
  )
}

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
