import { type NetworkClient, PublishError } from "@herald/adapter-kit"
import { Option, Schema } from "effect"

// Facebook's error answers mapped onto Herald's reasons, in one table. Graph errors look like
// `{"error":{"message","type","code","error_subcode","is_transient","error_user_title","error_user_msg"}}`
// (https://developers.facebook.com/docs/graph-api/guides/error-handling).

const network = "facebook"

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

type Rule =
  | { readonly reason: "RateLimited"; readonly message: string; readonly retryAfterMs: number }
  | { readonly reason: "Transient" | "Rejected" | "NeedsReconnect"; readonly message: string }

const minutes = (count: number) => count * 60_000

const reconnect: Rule = { reason: "NeedsReconnect", message: "the Facebook access was revoked or is no longer valid" }
const permission: Rule = { reason: "NeedsReconnect", message: "a permission or Page role Herald needs was not granted" }

/** Subcodes, looked up before the code because they say more. */
const subcodes: ReadonlyMap<number, Rule> = new Map<number, Rule>([
  // The person must log in on facebook.com and clear a security checkpoint.
  [490, { reason: "NeedsReconnect", message: "Facebook wants the account owner to log in and confirm their identity" }],
  [1366046, { reason: "Rejected", message: "the photo is too large or not a JPEG, PNG, GIF or BMP" }],
  [1390008, { reason: "RateLimited", message: "the Page is posting too fast", retryAfterMs: minutes(10) }],
  [2061006, { reason: "Rejected", message: "a URL in the post is not valid" }],
  // Code 10 with this subcode is Messenger's 24-hour window, not a missing permission: the person must
  // write first (https://developers.facebook.com/docs/messenger-platform/policy/policy-overview).
  [2018278, { reason: "Rejected", message: "Messenger lets a Page answer only within 24 hours of the person's last message" }]
])

/** Graph error codes, for answers whose subcode is absent or unknown. */
const codes: ReadonlyMap<number, Rule> = new Map<number, Rule>([
  [1, { reason: "Transient", message: "Facebook had an unknown error" }],
  [2, { reason: "Transient", message: "Facebook is temporarily unavailable" }],
  [4, { reason: "RateLimited", message: "the app reached its Facebook call limit", retryAfterMs: minutes(5) }],
  [9, { reason: "RateLimited", message: "the Page reached a Facebook posting limit", retryAfterMs: minutes(60) }],
  [10, permission],
  [17, { reason: "RateLimited", message: "the account reached its Facebook call limit", retryAfterMs: minutes(5) }],
  [32, { reason: "RateLimited", message: "the Page reached its Facebook call limit", retryAfterMs: minutes(5) }],
  [102, reconnect],
  // Page tokens have no refresh, so even an expired one (subcode 463) needs a new connection.
  [190, reconnect],
  [200, permission],
  [324, { reason: "Rejected", message: "Facebook could not read the photo file" }],
  [351, { reason: "Rejected", message: "Facebook could not read the video file" }],
  [352, { reason: "Rejected", message: "the video format is not supported; use MP4 or MOV" }],
  [368, { reason: "Rejected", message: "Facebook refused this content or blocked the Page from posting for now" }],
  [506, { reason: "Rejected", message: "Facebook refuses a post identical to the one just before it" }],
  [613, { reason: "RateLimited", message: "the app reached its Facebook call limit", retryAfterMs: minutes(5) }],
  [1609005, { reason: "Rejected", message: "Facebook could not read the link in the post" }],
  [6000, { reason: "Transient", message: "Facebook had a problem uploading the video" }],
  [6001, { reason: "Transient", message: "Facebook timed out uploading the video" }],
  [80001, { reason: "RateLimited", message: "the Page reached its Facebook call limit", retryAfterMs: minutes(5) }]
])

/** A rule's error; a wait the answer names itself overrides the rule's. */
const build = (rule: Rule, detail: string | undefined, waitMs?: number): PublishError.PublishError => {
  const message = detail === undefined || detail === "" ? rule.message : `${rule.message} (${detail})`
  return PublishError.of(network, rule.reason, message, rule.reason === "RateLimited" ? waitMs ?? rule.retryAfterMs : 0)
}

/** The rule for one Graph error: auth first (code 190), then the subcode, then the code. */
const ruleOf = (error: GraphError["error"]): Rule | undefined => {
  const code = error.code
  if (code === 190) return reconnect
  const bySubcode = error.error_subcode === undefined ? undefined : subcodes.get(error.error_subcode)
  if (bySubcode !== undefined) return bySubcode
  // 200 to 299 are all permission errors (pages_manage_posts missing, no CREATE_CONTENT task).
  if (code !== undefined && code >= 200 && code <= 299) return permission
  const byCode = code === undefined ? undefined : codes.get(code)
  if (byCode !== undefined) return byCode
  // Meta marks some passing faults itself.
  return error.is_transient === true ? { reason: "Transient", message: "Facebook had a passing error" } : undefined
}

/** Any refused answer (status ≥ 400, as the kit's `NetworkClient` reads it) as a `PublishError`. */
export const refusal = ({ body, retryAfterMs, status }: NetworkClient.Refusal): PublishError.PublishError => {
  const graph = Schema.decodeUnknownOption(GraphError)(body)
  if (Option.isSome(graph)) {
    const error = graph.value.error
    const detail = error.error_user_msg ?? error.message
    const rule = ruleOf(error)
    if (rule !== undefined) return build(rule, detail, retryAfterMs)
    if (status >= 500) return build({ reason: "Transient", message: "Facebook had a server error" }, detail)
    return PublishError.rejected(network, detail ?? `Facebook refused the request (HTTP ${status})`)
  }
  if (status === 429) return build({ reason: "RateLimited", message: "too many calls", retryAfterMs: minutes(1) }, undefined, retryAfterMs)
  if (status >= 500) return PublishError.transient(network, `Facebook answered HTTP ${status}`)
  return PublishError.rejected(network, `Facebook refused the request (HTTP ${status})`)
}
