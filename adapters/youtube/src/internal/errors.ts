import { Option, Schema } from "effect"
import { type NetworkClient, PublishError } from "@herald/adapter-kit"
import { unverifiedMaxVideoMs } from "../YouTubeLimits.ts"

// Google's error answers mapped onto Herald's publish reasons, in one table. The Data API answers
// `{ error: { code, message, errors: [{ domain, reason, message }], status } }`; the OAuth token endpoint
// answers `{ error, error_description }`; a video YouTube refused after upload carries
// `status.rejectionReason` or `status.failureReason`. All are looked up here by their code.
// https://developers.google.com/youtube/v3/docs/errors
// https://developers.google.com/identity/protocols/oauth2/web-server#exchange-errors

const network = "youtube"

/** How long to wait when Google says to slow down without saying for how long. */
export const rateLimitWaitMs = 60_000
/** The daily quota resets at midnight Pacific time; an hour is a polite first wait. */
export const quotaWaitMs = 60 * 60_000

type Kind = "RateLimited" | "QuotaExceeded" | "Transient" | "Rejected" | "AuthExpired" | "NeedsReconnect"

interface Entry {
  readonly kind: Kind
  readonly explanation: string
}

const table: Readonly<Record<string, Entry>> = {
  authError: { kind: "AuthExpired", explanation: "the access token is expired or no longer valid" },
  invalid_grant: { kind: "NeedsReconnect", explanation: "Google refused the grant (revoked or expired); connect the account again" },
  insufficientPermissions: { kind: "NeedsReconnect", explanation: "the account did not grant the YouTube scopes Herald needs" },
  quotaExceeded: { kind: "QuotaExceeded", explanation: "the Google project used up its daily YouTube quota (it resets at midnight Pacific)" },
  rateLimitExceeded: { kind: "RateLimited", explanation: "too many requests to YouTube; try again shortly" },
  userRateLimitExceeded: { kind: "RateLimited", explanation: "too many requests for this account; try again shortly" },
  uploadLimitExceeded: { kind: "Rejected", explanation: "the channel reached YouTube's upload limit for now" },
  youtubeSignupRequired: { kind: "Rejected", explanation: "this Google account has no YouTube channel" },
  forbidden: { kind: "Rejected", explanation: "YouTube does not allow this for the channel" },
  invalidTitle: { kind: "Rejected", explanation: "YouTube refused the title" },
  invalidDescription: { kind: "Rejected", explanation: "YouTube refused the description" },
  invalidTags: { kind: "Rejected", explanation: "YouTube refused the tags" },
  mediaBodyRequired: { kind: "Rejected", explanation: "the upload carried no video" },
  invalidImage: { kind: "Rejected", explanation: "YouTube could not use the thumbnail image" },
  imageFormatUnsupported: { kind: "Rejected", explanation: "the thumbnail must be a JPEG or PNG" },
  // Comments (the inbox).
  commentsDisabled: { kind: "Rejected", explanation: "comments are turned off for this video" },
  commentNotFound: { kind: "Rejected", explanation: "the comment no longer exists on YouTube" },
  commentTextTooLong: { kind: "Rejected", explanation: "the reply is longer than YouTube allows" },
  operationNotSupported: { kind: "Rejected", explanation: "YouTube does not allow a reply to this comment" },
  backendError: { kind: "Transient", explanation: "YouTube had a passing failure" },
  internalError: { kind: "Transient", explanation: "YouTube had an internal error" },
  // Why YouTube refused a video after upload (`status.rejectionReason` / `status.failureReason`).
  duplicate: { kind: "Rejected", explanation: "YouTube rejected the video as a duplicate of another upload" },
  inappropriate: { kind: "Rejected", explanation: "YouTube rejected the video as inappropriate" },
  copyright: { kind: "Rejected", explanation: "YouTube rejected the video for copyright infringement" },
  length: {
    kind: "Rejected",
    explanation: "the video is longer than YouTube lets this channel upload (15 min until the channel is verified, 12 hours after)"
  },
  termsOfUse: { kind: "Rejected", explanation: "YouTube rejected the video under its terms of use" },
  codec: { kind: "Rejected", explanation: "YouTube could not decode the video" },
  conversion: { kind: "Rejected", explanation: "YouTube could not convert the video" },
  emptyFile: { kind: "Rejected", explanation: "the uploaded video file is empty" },
  tooSmall: { kind: "Rejected", explanation: "the video file is too small" }
}

const build = (kind: Kind, message: string): PublishError.PublishError => {
  // Google's daily quota resets at midnight Pacific: a much longer wait than a per-minute limit.
  return kind === "QuotaExceeded"
    ? PublishError.rateLimited(network, message, quotaWaitMs)
    : PublishError.of(network, kind, message, rateLimitWaitMs)
}

const kindOfStatus = (status: number): Kind =>
  status === 429 ? "RateLimited" : status === 401 ? "AuthExpired" : status >= 500 ? "Transient" : "Rejected"

/** The error for an answer with `status` and Google's `reason` (or OAuth `error`, or rejection reason). */
export const fromReason = (params: {
  readonly status: number
  readonly reason: string
  readonly message?: string | undefined
}): PublishError.PublishError => {
  const entry = Object.hasOwn(table, params.reason) ? table[params.reason] : undefined
  // A 5xx is passing whatever reason came with it; a 401 is always a token problem.
  const kind = params.status >= 500
    ? "Transient"
    : params.status === 401 && entry?.kind !== "NeedsReconnect"
    ? "AuthExpired"
    : entry?.kind ?? kindOfStatus(params.status)
  const detail = params.message === undefined || params.message === "" ? params.reason : `${params.reason}: ${params.message}`
  return build(kind, entry === undefined ? `YouTube answered ${detail}` : `${entry.explanation} (${detail})`)
}

/** A video YouTube refused or failed to process after the upload. */
export const fromVideoStatus = (reason: string | undefined, what: string): PublishError.PublishError =>
  fromReason({ status: 200, reason: reason ?? "unknown", message: what })

/** Minutes, rounded away from the 15-minute bound so a longer video never reads as "15 min". */
const minutes = (milliseconds: number) => {
  const tenths = Math.ceil(milliseconds / 6_000)
  return tenths % 10 === 0 ? `${tenths / 10} min` : `${(tenths / 10).toFixed(1)} min`
}

/** Why a channel with this `status.longUploadsStatus` may not upload a video over 15 minutes. */
const longUploadRefusals: Readonly<Record<string, (verifyUrl: string) => string>> = {
  eligible: (verifyUrl) => `this channel can upload videos of at most ${minutes(unverifiedMaxVideoMs)} until it is verified (${verifyUrl})`,
  disallowed: () =>
    `YouTube does not let this channel upload videos over ${minutes(unverifiedMaxVideoMs)} (YouTube Studio shows why under Settings, Channel, Feature eligibility)`
}

/**
 * The refusal of a video over 15 minutes for a channel whose `longUploadsStatus` does not allow it, before any
 * byte is sent; undefined when the channel may upload it, or when YouTube does not say
 * (`longUploadsUnspecified`, no status): then YouTube decides, and refuses with `length` after the upload.
 */
export const fromLongUploads = (params: {
  readonly status: string | undefined
  readonly position: number
  readonly durationMs: number
  readonly verifyUrl: string
}): PublishError.PublishError | undefined => {
  const refusal = params.status !== undefined && Object.hasOwn(longUploadRefusals, params.status)
    ? longUploadRefusals[params.status]!
    : undefined
  return refusal === undefined
    ? undefined
    : PublishError.rejected(network, `video ${params.position} is ${minutes(params.durationMs)} long; ${refusal(params.verifyUrl)}`)
}

/** Data API errors carry a struct; the token endpoint's carry a string. Minimal and lenient. */
const ErrorAnswer = Schema.Struct({
  error: Schema.Union([
    Schema.String,
    Schema.Struct({
      message: Schema.optionalKey(Schema.String),
      errors: Schema.optionalKey(Schema.Array(Schema.Struct({ reason: Schema.optionalKey(Schema.String) }))),
      status: Schema.optionalKey(Schema.String)
    })
  ]),
  error_description: Schema.optionalKey(Schema.String)
})

/** The error for an answer of 400 or more: Google's first reason (or OAuth `error`), else the status. */
export const refusal = ({ body, status }: NetworkClient.Refusal): PublishError.PublishError =>
  Option.match(Schema.decodeUnknownOption(ErrorAnswer)(body), {
    onNone: () => fromReason({ status, reason: `http_${status}` }),
    onSome: ({ error, error_description }) =>
      typeof error === "string"
        ? fromReason({ status, reason: error, message: error_description })
        : fromReason({ status, reason: error.errors?.[0]?.reason ?? error.status ?? `http_${status}`, message: error.message })
  })

/** The kit's client options for YouTube: every call's lost answer and refusal go through here. */
export const client = { network, name: "YouTube", refusal } as const

/** An answer that lacks what the protocol promises (an upload session without its address). */
export const unexpected = (what: string): PublishError.PublishError =>
  PublishError.transient(network, `YouTube sent an unexpected answer to ${what}`)
