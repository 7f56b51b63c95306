import { Schema } from "effect"

// What the OAuth server refuses, as errors with a readable message. `OAuthRefused` is the one error of the
// token, registration and revocation endpoints: its `error` is the RFC's code, sent as is.

/** A refusal the endpoint answers `400 { error, error_description }` (RFC 6749 section 5.2, RFC 7591 section 3.2.2). */
export class OAuthRefused extends Schema.TaggedError<OAuthRefused>()("OAuthRefused", {
  error: Schema.Literals([
    "invalid_request",
    "invalid_grant",
    "invalid_client",
    "invalid_target",
    "unsupported_grant_type",
    "invalid_redirect_uri",
    "invalid_client_metadata"
  ]),
  description: Schema.String
}) {
  override get message() {
    return this.description
  }
}

/**
 * `/authorize` with an unknown client or a redirect URI it did not register: answered with a page, never a
 * redirect, since the redirect URI cannot be trusted (RFC 6749, section 4.1.2.1).
 */
export class AuthorizeUntrusted extends Schema.TaggedError<AuthorizeUntrusted>()("AuthorizeUntrusted", {
  description: Schema.String
}) {
  override get message() {
    return this.description
  }
}

/** Any other problem of an authorization request: sent back to the client's redirect URI. */
export class AuthorizeRefused extends Schema.TaggedError<AuthorizeRefused>()("AuthorizeRefused", {
  error: Schema.Literals(["invalid_request", "invalid_scope", "invalid_target", "unsupported_response_type"]),
  description: Schema.String,
  /** Where to send it, with `error`, `error_description` and `state`. */
  redirectTo: Schema.String
}) {
  override get message() {
    return this.description
  }
}

export class RequestNotFound extends Schema.TaggedError<RequestNotFound>()("RequestNotFound", {
  requestId: Schema.String
}) {
  override get message() {
    return `Authorization request ${this.requestId} does not exist, has expired or was already answered; start again from the assistant`
  }
}

export class GrantNotFound extends Schema.TaggedError<GrantNotFound>()("GrantNotFound", { grantId: Schema.String }) {
  override get message() {
    return `Connected assistant ${this.grantId} does not exist`
  }
}

export class NotAMemberOf extends Schema.TaggedError<NotAMemberOf>()("NotAMemberOf", { workspaceId: Schema.String }) {
  override get message() {
    return `You are not a member of workspace ${this.workspaceId}`
  }
}

/** Direct publishing asked by a member whose own posts wait for approval there (decision 0048). */
export class DirectPublishingRefused extends Schema.TaggedError<DirectPublishingRefused>()("DirectPublishingRefused", {
  role: Schema.String
}) {
  override get message() {
    return `Your role there (${this.role}) publishes through approval, so you cannot let an assistant publish without it`
  }
}

/** An access token `/api/mcp` cannot accept; the message says what to do, as every 401 of Herald does. */
export class TokenRefused extends Schema.TaggedError<TokenRefused>()("TokenRefused", {
  reason: Schema.Literals(["unknown", "expired", "revoked"])
}) {
  override get message() {
    switch (this.reason) {
      case "unknown":
        return "Invalid access token: sign in to Herald again from the assistant"
      case "expired":
        return "The access token has expired: refresh it, or sign in to Herald again from the assistant"
      case "revoked":
        return "This assistant was disconnected from Herald: connect it again to sign in"
    }
  }
}
