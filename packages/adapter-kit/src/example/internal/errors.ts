import { Option, Schema } from "effect"
import { type NetworkClient, PublishError } from "../../index.ts"

// The example network's errors, `{ "error": { "code", "message" } }`, mapped to Herald's reasons (the guide's
// section 4, "Errors").

const network = "example"

const ErrorAnswer = Schema.Struct({ error: Schema.Struct({ code: Schema.String, message: Schema.String }) })

// The wire-to-reason table: the kit's `NetworkClient` hands it every answer with a status of 400 or more,
// with the wait the answer named (`Retry-After`) already read.
export const toError = (refusal: NetworkClient.Refusal) => {
  const decoded = Schema.decodeUnknownOption(ErrorAnswer)(refusal.body)
  const code = Option.match(decoded, { onNone: () => "unknown", onSome: (answer) => answer.error.code })
  const message = Option.match(decoded, { onNone: () => `HTTP ${refusal.status}`, onSome: (answer) => answer.error.message })
  if (refusal.status === 429) return PublishError.rateLimited(network, message, refusal.retryAfterMs ?? 1000)
  if (code === "token_expired") return PublishError.authExpired(network, message)
  if (code === "token_revoked" || code === "invalid_grant") return PublishError.needsReconnect(network, message)
  if (refusal.status >= 500) return PublishError.transient(network, message)
  return PublishError.rejected(network, message)
}
