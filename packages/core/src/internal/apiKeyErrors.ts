import { Schema } from "effect"

// What the API keys service refuses, and how every refusal of a request says to authenticate: sentences for the
// person who sent it, apart from the key cache and lookups of `ApiKeys`, which re-exports them.

export class ApiKeyNotFound extends Schema.TaggedError<ApiKeyNotFound>()("ApiKeyNotFound", {
  keyId: Schema.String
}) {
  override get message() {
    return `API key ${this.keyId} does not exist`
  }
}

/**
 * How to authenticate, said by every refusal: OAuth-capable MCP clients hide a 401's body behind their OAuth
 * flow, so this also rides in `WWW-Authenticate` (docs/decisions/0017-authentication-messages.md). Plain ASCII
 * without `"` or a backslash, as RFC 6750's `error_description` allows.
 */
export const howToAuthenticate = "Send an API key as `Authorization: Bearer <key>`; " +
  "create one in the console (Settings > API keys) or with `herald key create --workspace <ws_...>`"

/**
 * Why a request was refused; each reason reads as a sentence for the person who sent it, followed by how to
 * authenticate. `missing` to `in_query` are requests that sent no key the Bearer way; the rest sent a key
 * that is not a valid one.
 */
export class Unauthenticated extends Schema.TaggedError<Unauthenticated>()("Unauthenticated", {
  reason: Schema.Literals([
    "missing",
    "not_bearer",
    "other_scheme",
    "wrong_header",
    "in_query",
    "malformed",
    "bad_checksum",
    "unknown",
    "revoked"
  ]),
  /** What was sent instead: the other scheme's name, the header's or the query parameter's name. */
  sent: Schema.optionalKey(Schema.String)
}) {
  /** True when no key was sent the Bearer way, so there is no token to call invalid (RFC 6750, section 3.1). */
  get noToken(): boolean {
    return this.reason === "missing" || this.reason === "not_bearer" || this.reason === "other_scheme" ||
      this.reason === "wrong_header" || this.reason === "in_query"
  }

  override get message() {
    return `${this.problem}. ${howToAuthenticate}`
  }

  private get problem() {
    switch (this.reason) {
      case "missing":
        return "Missing API key"
      case "not_bearer":
        return "The Authorization header must be `Bearer <key>`: it holds the key without the `Bearer` scheme"
      case "other_scheme":
        return this.sent === undefined
          ? "The Authorization header must be `Bearer <key>`; it uses another scheme"
          : `The Authorization header must be \`Bearer <key>\`, not \`${this.sent} ...\``
      case "wrong_header":
        return `Herald reads the API key from the Authorization header, not from ${this.sent ?? "another header"}`
      case "in_query":
        return `Herald reads the API key from the Authorization header, not from the URL's ${this.sent ?? ""} ` +
          "parameter (a key in a URL ends up in logs)"
      case "malformed":
        return "Malformed API key: Herald keys start with `hrld_` and are 54 characters long"
      case "bad_checksum":
        return "Invalid API key: its checksum does not match (was it copied completely?)"
      case "unknown":
        return "Invalid API key"
      case "revoked":
        return "This API key has been revoked"
    }
  }
}

export class MemberNotInWorkspace extends Schema.TaggedError<MemberNotInWorkspace>()("MemberNotInWorkspace", {
  memberId: Schema.String,
  workspaceId: Schema.String
}) {
  override get message() {
    return `Member ${this.memberId} is not a member of workspace ${this.workspaceId}`
  }
}
