import { Option, Schema } from "effect"
import { type NetworkClient, PublishError } from "@herald/adapter-kit"

// TikTok's error answers mapped onto Herald's publish reasons, in one table. TikTok answers every API call
// with `{ data, error: { code, message, log_id } }` where `code` is "ok" on success; the OAuth token endpoint
// answers `{ error, error_description, log_id }` instead; a failed post arrives later as `status/fetch`'s
// `fail_reason`. All three kinds of code share this table.
// https://developers.tiktok.com/doc/tiktok-api-v2-error-handling
// https://developers.tiktok.com/doc/content-posting-api-reference-direct-post (error codes)
// https://developers.tiktok.com/doc/content-posting-api-reference-get-video-status (fail reasons)

const network = "tiktok"

/** TikTok allows 6 init calls per minute per token and sends no `Retry-After`: wait out the window. */
const rateLimitWindowMs = 60_000

type Kind = "RateLimited" | "Transient" | "Rejected" | "AuthExpired" | "NeedsReconnect"

interface Entry {
  readonly kind: Kind
  /** What a person should read, in place of the bare code. */
  readonly explanation: string
}

const table: Readonly<Record<string, Entry>> = {
  // An expired token and a revoked one look the same: refresh first; a refused refresh then asks for a
  // reconnect (networks.md §9, "Needs reconnect signals").
  access_token_invalid: { kind: "AuthExpired", explanation: "the access token is expired or no longer valid" },
  invalid_grant: { kind: "NeedsReconnect", explanation: "TikTok refused the grant; connect the account again" },
  scope_not_authorized: { kind: "NeedsReconnect", explanation: "the account did not grant the video.publish scope" },
  scope_permission_missed: { kind: "NeedsReconnect", explanation: "a required scope is missing; connect again" },
  rate_limit_exceeded: { kind: "RateLimited", explanation: "too many requests for this account; try again in a minute" },
  spam_risk_too_many_posts: { kind: "Rejected", explanation: "the account reached TikTok's daily post limit" },
  spam_risk_too_many_pending_share: { kind: "Rejected", explanation: "too many posts are still waiting in the account's inbox" },
  spam_risk_user_banned_from_posting: { kind: "Rejected", explanation: "TikTok does not let this account post right now" },
  spam_risk_text: { kind: "Rejected", explanation: "TikTok flagged the caption as spam" },
  spam_risk: { kind: "Rejected", explanation: "TikTok flagged the post as spam" },
  privacy_level_option_mismatch: { kind: "Rejected", explanation: "the privacy level is not one the account offers" },
  unaudited_client_can_only_post_to_private_accounts: {
    kind: "Rejected",
    explanation: "the TikTok app is not audited yet, so it may only post with privacy SELF_ONLY"
  },
  reached_active_user_cap: { kind: "Rejected", explanation: "the TikTok app reached its daily cap of posting users" },
  url_ownership_unverified: { kind: "Rejected", explanation: "the media address's domain is not verified in the TikTok app" },
  invalid_file_upload: { kind: "Rejected", explanation: "TikTok could not read the media file" },
  file_format_check_failed: { kind: "Rejected", explanation: "TikTok does not accept the file's format" },
  duration_check_failed: { kind: "Rejected", explanation: "the video is shorter or longer than the account allows" },
  frame_rate_check_failed: { kind: "Rejected", explanation: "the video's frame rate is outside 23 to 60 fps" },
  picture_size_check_failed: { kind: "Rejected", explanation: "a photo is larger than TikTok accepts" },
  video_pull_failed: { kind: "Rejected", explanation: "TikTok could not download the video from its address" },
  photo_pull_failed: { kind: "Rejected", explanation: "TikTok could not download a photo from its address" },
  publish_cancelled: { kind: "Rejected", explanation: "the post was cancelled in TikTok" },
  auth_removed: { kind: "NeedsReconnect", explanation: "the account removed Herald's access while the post was processing" },
  internal_error: { kind: "Transient", explanation: "TikTok had an internal error" },
  internal: { kind: "Transient", explanation: "TikTok had an internal error" }
}

const build = (kind: Kind, message: string): PublishError.PublishError => {
  return PublishError.of(network, kind, message, rateLimitWindowMs)
}

/** The kind for a code the table does not know, from the HTTP status alone. */
const kindOfStatus = (status: number): Kind =>
  status === 429 ? "RateLimited" : status === 401 ? "AuthExpired" : status >= 500 ? "Transient" : "Rejected"

/**
 * The error for an answer carrying `code` (an API `error.code`, an OAuth `error`, or a `fail_reason`).
 * TikTok's own message is kept after the explanation: it often says which field was wrong.
 */
export const fromCode = (params: {
  readonly status: number
  readonly code: string
  readonly message?: string | undefined
}): PublishError.PublishError => {
  const entry = Object.hasOwn(table, params.code) ? table[params.code] : undefined
  // A 5xx is passing whatever code came with it.
  const kind = params.status >= 500 ? "Transient" : entry?.kind ?? kindOfStatus(params.status)
  const detail = params.message === undefined || params.message === "" ? params.code : `${params.code}: ${params.message}`
  return build(kind, entry === undefined ? `TikTok answered ${detail}` : `${entry.explanation} (${detail})`)
}

/** A failed post as `status/fetch` reports it, with TikTok's words when it gave some: a refusal unless the table knows better. */
export const fromFailReason = (failReason: string, message?: string | undefined): PublishError.PublishError =>
  fromCode({ status: 200, code: failReason === "" ? "unknown" : failReason, message: message ?? "the post failed" })

/** The API envelope's error, `code` "ok" on success; minimal and lenient. */
const EnvelopeError = Schema.Struct({
  error: Schema.Struct({ code: Schema.String, message: Schema.optionalKey(Schema.String) })
})

/** The token endpoint's error answer, which is not the API envelope. */
const OAuthError = Schema.Struct({ error: Schema.String, error_description: Schema.optionalKey(Schema.String) })

/** The code an answer refuses with: the envelope's `error.code` when not "ok", else the OAuth `error`. */
const codeIn = (body: unknown): { readonly code: string; readonly message: string | undefined } | undefined => {
  const api = Option.filter(Schema.decodeUnknownOption(EnvelopeError)(body), (answer) => answer.error.code !== "ok")
  if (Option.isSome(api)) return { code: api.value.error.code, message: api.value.error.message }
  return Option.match(Schema.decodeUnknownOption(OAuthError)(body), {
    onNone: () => undefined,
    onSome: (answer) => ({ code: answer.error, message: answer.error_description })
  })
}

/** An answer of 400 or more: its code when it names one, else the status. */
export const refusal = ({ body, status }: NetworkClient.Refusal): PublishError.PublishError =>
  fromCode({ status, ...(codeIn(body) ?? { code: `http_${status}` }) })

/** TikTok answers many refusals with 200 and the code in the envelope; undefined when it named none. */
export const refusedIn = ({ body, status }: NetworkClient.Refusal): PublishError.PublishError | undefined => {
  const refused = codeIn(body)
  return refused === undefined ? undefined : fromCode({ status, ...refused })
}

/**
 * The kit's client options for TikTok. A lost answer to `init` may have created the post, and TikTok has no
 * idempotency key and no lookup Herald can use, so `init` is the call that makes the post.
 */
export const client = { network, name: "TikTok", refusal, refusedIn } as const
