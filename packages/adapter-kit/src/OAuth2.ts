import { Option, Redacted, Schema } from "effect"
import { HttpClientRequest } from "effect/http"
import type { Tokens } from "./internal/connectHooks.ts"

// The two OAuth 2.0 requests of a connect, built once: the consent page's address (RFC 6749 §4.1.1, with
// RFC 7636's S256 challenge when the network takes PKCE) and the token endpoint's form for a code or a refresh
// token (§4.1.3, §6). A network's own names (TikTok's `client_key`) and extra parameters (Google's
// `access_type`) are arguments; what each network sends lives in its adapter. And the token endpoint's answer
// (§5.1) read into Herald's tokens, for the networks that answer it as the RFC does.

/** The separator of `scope`: RFC 6749 §3.3's space, or the comma that Meta's and TikTok's dialogs want. */
export type ScopeSeparator = " " | ","

export interface AuthorizeParams {
  /** The consent page, without its query. */
  readonly endpoint: string
  readonly clientId: string
  /** The parameter the client id goes in: `client_id` unless the network names it otherwise. */
  readonly clientIdParam?: string
  readonly redirectUri: string
  readonly state: string
  readonly scopes: ReadonlyArray<string>
  /** `" "` unless given. */
  readonly scopeSeparator?: ScopeSeparator
  /** The S256 challenge; absent for a network without PKCE. */
  readonly codeChallenge?: string | undefined
  /** The network's own parameters, added after the standard ones in the order given. */
  readonly extra?: Readonly<Record<string, string>>
}

/**
 * Where to send the person to grant access: `response_type=code`, the client, `redirect_uri`, `scope`,
 * `state`, then `code_challenge` with `code_challenge_method=S256` when a challenge is given, then `extra`.
 * Every value is escaped as a query value.
 */
export const authorizeUrl = (params: AuthorizeParams): string => {
  const url = new URL(params.endpoint)
  url.searchParams.set("response_type", "code")
  url.searchParams.set(params.clientIdParam ?? "client_id", params.clientId)
  url.searchParams.set("redirect_uri", params.redirectUri)
  url.searchParams.set("scope", params.scopes.join(params.scopeSeparator ?? " "))
  url.searchParams.set("state", params.state)
  if (params.codeChallenge !== undefined) {
    url.searchParams.set("code_challenge", params.codeChallenge)
    url.searchParams.set("code_challenge_method", "S256")
  }
  for (const [name, value] of Object.entries(params.extra ?? {})) url.searchParams.set(name, value)
  return url.toString()
}

/** What is traded for tokens: the consent page's code (§4.1.3), or a refresh token (§6). */
export type Grant =
  | {
    readonly _tag: "AuthorizationCode"
    readonly code: string
    readonly redirectUri: string
    /** The PKCE verifier, sent as `code_verifier` when given. */
    readonly codeVerifier?: string | undefined
  }
  | { readonly _tag: "RefreshToken"; readonly refreshToken: Redacted.Redacted<string> }

export interface TokenParams {
  readonly endpoint: string
  readonly grant: Grant
  readonly clientId: string
  /** The parameter the client id goes in: `client_id` unless the network names it otherwise. */
  readonly clientIdParam?: string
  readonly clientSecret: string | Redacted.Redacted<string>
  /**
   * How the client authenticates (§2.3.1): `body` sends `client_secret` in the form; `basic` sends the id and
   * secret as HTTP Basic. The client id is in the form either way (§3.2.1 allows it, and some networks ask).
   */
  readonly auth: "body" | "basic"
  /** The network's own parameters, added to the form. */
  readonly extra?: Readonly<Record<string, string>>
}

const grantForm = (grant: Grant): Record<string, string | Redacted.Redacted<string>> =>
  grant._tag === "AuthorizationCode"
    ? {
      grant_type: "authorization_code",
      code: grant.code,
      redirect_uri: grant.redirectUri,
      ...(grant.codeVerifier === undefined ? {} : { code_verifier: grant.codeVerifier })
    }
    : { grant_type: "refresh_token", refresh_token: grant.refreshToken }

/** The token endpoint's `POST`, its form URL-encoded; secrets stay `Redacted` until they are sent. */
export const tokenRequest = (params: TokenParams): HttpClientRequest.HttpClientRequest => {
  const request = HttpClientRequest.post(params.endpoint).pipe(
    HttpClientRequest.bodyUrlParams({
      ...grantForm(params.grant),
      [params.clientIdParam ?? "client_id"]: params.clientId,
      ...(params.auth === "body" ? { client_secret: params.clientSecret } : {}),
      ...params.extra
    })
  )
  return params.auth === "basic" ? HttpClientRequest.basicAuth(request, params.clientId, params.clientSecret) : request
}

/**
 * A token endpoint's answer as RFC 6749 §5.1 gives it, lenient: only what Herald reads. A network whose answer
 * is its own (TikTok's `open_id`, Meta's long-lived exchange) keeps its own schema.
 */
export const TokenAnswer = Schema.Struct({
  access_token: Schema.String,
  expires_in: Schema.optionalKey(Schema.Number),
  refresh_token: Schema.optionalKey(Schema.String),
  scope: Schema.optionalKey(Schema.String)
})
export type TokenAnswer = typeof TokenAnswer.Type

/**
 * Herald's tokens from an answer received at `now`. A refresh answer without a refresh token keeps the one
 * Herald has (§6: the server may issue a new one, and Google never does); no `scope` means the scopes asked
 * for were granted (§5.1); a comma-separated `scope` (`scopeSeparator: ","`) may also carry spaces.
 */
export const tokensOf = (answer: TokenAnswer, options: {
  readonly now: number
  readonly previousRefreshToken: Option.Option<Redacted.Redacted<string>>
  readonly requested: ReadonlyArray<string>
  readonly scopeSeparator?: ScopeSeparator
}): Tokens => ({
  accessToken: Redacted.make(answer.access_token),
  refreshToken: answer.refresh_token === undefined ? options.previousRefreshToken : Option.some(Redacted.make(answer.refresh_token)),
  expiresAt: answer.expires_in === undefined ? Option.none() : Option.some(options.now + answer.expires_in * 1000),
  scopes: answer.scope === undefined
    ? options.requested
    : answer.scope.split(options.scopeSeparator === "," ? /[\s,]+/ : / +/).filter((scope) => scope !== "")
})
