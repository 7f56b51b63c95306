import { type NetworkClient, PublishError } from "@herald/adapter-kit"
import { Option, Schema } from "effect"

// Instagram's error answers mapped onto Herald's reasons, in one table. Graph errors look like
// `{"error":{"message","type","code","error_subcode","is_transient","error_user_title","error_user_msg"}}`
// (https://developers.facebook.com/docs/graph-api/guides/error-handling); the publishing subcodes are
// listed at https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/error-codes

const network = "instagram"

const GraphError = Schema.Struct({
  error: Schema.Struct({
    message: Schema.optionalKey(Schema.String),
    type: Schema.optionalKey(Schema.String),
    code: Schema.optionalKey(Schema.Number),
    error_subcode: Schema.optionalKey(Schema.Number),
    is_transient: Schema.optionalKey(Schema.Boolean),
    error_user_title: Schema.optionalKey(Schema.String),
    error_user_msg: Schema.optionalKey(Schema.String)
  })
})
type GraphError = typeof GraphError.Type

// The code-for-token endpoint on api.instagram.com answers in the older Instagram shape.
const OAuthError = Schema.Struct({
  error_type: Schema.optionalKey(Schema.String),
  code: Schema.optionalKey(Schema.Number),
  error_message: Schema.String
})

type Rule =
  | { readonly reason: "RateLimited"; readonly message: string; readonly retryAfterMs: number }
  | { readonly reason: "Transient" | "Rejected" | "AuthExpired" | "NeedsReconnect"; readonly message: string }

const minutes = (count: number) => count * 60_000

/** Publishing subcodes (2207xxx), looked up before the code because they say more. */
const subcodes: ReadonlyMap<number, Rule> = new Map<number, Rule>([
  [463, { reason: "AuthExpired", message: "the access token expired" }],
  [2207001, { reason: "Transient", message: "Instagram had a server error" }],
  [2207003, { reason: "Transient", message: "Instagram timed out downloading the media" }],
  [2207004, { reason: "Rejected", message: "the image is too large; Instagram takes at most 8 MB" }],
  [2207005, { reason: "Rejected", message: "the image format is not supported; use JPEG" }],
  [2207006, { reason: "Rejected", message: "the media was not found; it may have been deleted" }],
  [2207008, { reason: "Rejected", message: "the media container expired (containers last 24 hours)" }],
  [2207009, { reason: "Rejected", message: "the photo's aspect ratio must lie between 4:5 and 1.91:1" }],
  [2207010, { reason: "Rejected", message: "the caption is too long or has too many hashtags or mentions" }],
  [2207020, { reason: "Rejected", message: "the media expired before it was published" }],
  [2207023, { reason: "Rejected", message: "the media type is unknown; use JPEG photos and MP4 or MOV videos" }],
  [2207026, { reason: "Rejected", message: "the video format is not supported (MP4 or MOV, H.264 or HEVC, AAC audio)" }],
  [2207027, { reason: "Transient", message: "the media is not ready to be published yet" }],
  [2207028, { reason: "Rejected", message: "the carousel is not valid; it needs 2 to 10 finished items" }],
  [2207032, { reason: "Transient", message: "Instagram could not create the media" }],
  [2207042, {
    reason: "RateLimited",
    message: "the account reached Instagram's publishing limit for the last 24 hours",
    retryAfterMs: minutes(60)
  }],
  [2207050, { reason: "Rejected", message: "the Instagram account is restricted or inactive" }],
  [2207051, { reason: "Rejected", message: "Instagram blocked this action to protect its community" }],
  [2207052, { reason: "Rejected", message: "Instagram could not fetch the media; its URL must be public" }],
  [2207053, { reason: "Transient", message: "Instagram had an error while uploading the media" }],
  [2207057, { reason: "Rejected", message: "the thumbnail offset lies outside the video" }],
  [2207081, { reason: "Rejected", message: "this account cannot publish trial reels" }],
  // Sending messages (https://developers.facebook.com/docs/messenger-platform/error-codes): these come with
  // code 10 or 100, which alone would ask for a reconnect or say nothing.
  [2018001, { reason: "Rejected", message: "Instagram found no one to send the message to" }],
  [2018278, {
    reason: "Rejected",
    message: "Instagram lets a business answer a message only within 24 hours of the person's last one"
  }]
])

/** Graph error codes, for answers whose subcode is absent or unknown. */
const codes: ReadonlyMap<number, Rule> = new Map<number, Rule>([
  [1, { reason: "Transient", message: "Instagram had an unknown error" }],
  [2, { reason: "Transient", message: "Instagram is temporarily unavailable" }],
  [4, { reason: "RateLimited", message: "the app reached its Instagram call limit", retryAfterMs: minutes(5) }],
  [9, { reason: "RateLimited", message: "the account reached Instagram's publishing limit", retryAfterMs: minutes(60) }],
  [10, { reason: "NeedsReconnect", message: "a permission Herald needs was not granted" }],
  [17, { reason: "RateLimited", message: "the account reached its Instagram call limit", retryAfterMs: minutes(5) }],
  [32, { reason: "RateLimited", message: "the account reached its Instagram call limit", retryAfterMs: minutes(5) }],
  [102, { reason: "NeedsReconnect", message: "the Instagram session is no longer valid" }],
  [190, { reason: "NeedsReconnect", message: "the Instagram access was revoked or is no longer valid" }],
  [200, { reason: "NeedsReconnect", message: "a permission Herald needs was not granted" }],
  [368, { reason: "Rejected", message: "Instagram temporarily blocked this account from posting" }],
  [613, { reason: "RateLimited", message: "the app reached its Instagram call limit", retryAfterMs: minutes(5) }],
  [36001, { reason: "Rejected", message: "the photo's resolution is too low" }],
  [36003, { reason: "Rejected", message: "the photo's aspect ratio must lie between 4:5 and 1.91:1" }]
])

/** A rule's error; a wait the answer names itself overrides the rule's. */
const build = (rule: Rule, detail: string | undefined, waitMs?: number): PublishError.PublishError => {
  const message = detail === undefined || detail === "" ? rule.message : `${rule.message} (${detail})`
  return PublishError.of(network, rule.reason, message, rule.reason === "RateLimited" ? waitMs ?? rule.retryAfterMs : 0)
}

/** The rule for one Graph error: auth first (code 190), then the subcode, then the code. */
const ruleOf = (error: GraphError["error"]): Rule | undefined => {
  const code = error.code
  const subcode = error.error_subcode
  // Every 190 needs a new grant except an expired token (463), which a refresh fixes.
  if (code === 190) return subcode === 463 ? subcodes.get(463) : codes.get(190)
  const bySubcode = subcode === undefined ? undefined : subcodes.get(subcode)
  if (bySubcode !== undefined) return bySubcode
  if (code !== undefined && code >= 200 && code <= 299) return codes.get(200)
  const byCode = code === undefined ? undefined : codes.get(code)
  if (byCode !== undefined) return byCode
  // Meta marks some passing faults itself.
  return error.is_transient === true ? { reason: "Transient", message: "Instagram had a passing error" } : undefined
}

/** Any refused answer (status ≥ 400, as the kit's `NetworkClient` reads it) as a `PublishError`. */
export const refusal = ({ body, retryAfterMs, status }: NetworkClient.Refusal): PublishError.PublishError => {
  const graph = Schema.decodeUnknownOption(GraphError)(body)
  if (Option.isSome(graph)) {
    const error = graph.value.error
    const detail = error.error_user_msg ?? error.message
    const rule = ruleOf(error)
    if (rule !== undefined) return build(rule, detail, retryAfterMs)
    if (status >= 500) return build({ reason: "Transient", message: "Instagram had a server error" }, detail)
    return PublishError.rejected(network, detail ?? `Instagram refused the request (HTTP ${status})`)
  }
  const oauth = Schema.decodeUnknownOption(OAuthError)(body)
  if (Option.isSome(oauth)) {
    // A code that cannot be redeemed (used, expired, wrong redirect URI): the person has to connect again.
    return PublishError.needsReconnect(network, `Instagram refused the authorization: ${oauth.value.error_message}`)
  }
  if (status === 429) return build({ reason: "RateLimited", message: "too many calls", retryAfterMs: minutes(1) }, undefined, retryAfterMs)
  if (status >= 500) return PublishError.transient(network, `Instagram answered HTTP ${status}`)
  return PublishError.rejected(network, `Instagram refused the request (HTTP ${status})`)
}

/**
 * A container that ended in `ERROR` or `EXPIRED`. Its `status` reads like "Error: Media upload has failed
 * with error code 2207026", so the subcode it names is looked up in the same table.
 */
export const fromContainerStatus = (statusCode: string, status: string | undefined): PublishError.PublishError => {
  if (statusCode === "EXPIRED") return build(subcodes.get(2207008)!, undefined)
  const subcode = /\b(2207\d{3})\b/.exec(status ?? "")?.[1]
  const rule = subcode === undefined ? undefined : subcodes.get(Number(subcode))
  return rule !== undefined
    ? build(rule, undefined)
    : PublishError.rejected(network, `Instagram could not process the media (${status ?? statusCode})`)
}
