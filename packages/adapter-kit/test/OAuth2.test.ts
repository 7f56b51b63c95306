import { assert, describe, it } from "@effect/vitest"
import { Option, Redacted } from "effect"
import type { HttpClientRequest } from "effect/http"
import { OAuth2 } from "../src/index.ts"

// The consent page's address and the token endpoint's form, as the networks read them: by name, escaped.

const base = {
  endpoint: "https://auth.example/oauth/authorize",
  clientId: "client 1",
  redirectUri: "https://herald.example/callback?from=connect&x=1",
  state: "s+t/a=te",
  scopes: ["read", "write:posts"]
}

/** The query's pairs, in order. */
const query = (url: string) => [...new URL(url).searchParams.entries()]

/** The form a token request sends, decoded, and its Authorization header. */
const sent = (request: HttpClientRequest.HttpClientRequest) => {
  assert.strictEqual(request.method, "POST")
  assert.strictEqual(request.body._tag, "Uint8Array")
  const body = request.body as unknown as { readonly contentType: string; readonly body: Uint8Array }
  assert.strictEqual(body.contentType, "application/x-www-form-urlencoded")
  return {
    form: Object.fromEntries(new URLSearchParams(new TextDecoder().decode(body.body))),
    authorization: request.headers["authorization"]
  }
}

describe("OAuth2.authorizeUrl", () => {
  it("asks for a code, with the client, the callback, the scopes space-separated and the state; no PKCE without a challenge", () => {
    assert.deepStrictEqual(query(OAuth2.authorizeUrl(base)), [
      ["response_type", "code"],
      ["client_id", "client 1"],
      ["redirect_uri", "https://herald.example/callback?from=connect&x=1"],
      ["scope", "read write:posts"],
      ["state", "s+t/a=te"]
    ])
  })

  it("adds the S256 challenge when one is given", () => {
    const url = new URL(OAuth2.authorizeUrl({ ...base, codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM" }))
    assert.strictEqual(url.searchParams.get("code_challenge"), "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    assert.strictEqual(url.searchParams.get("code_challenge_method"), "S256")
    assert.isNull(new URL(OAuth2.authorizeUrl({ ...base, codeChallenge: undefined })).searchParams.get("code_challenge_method"))
  })

  it("joins scopes with the network's separator and names the client as the network does", () => {
    const url = new URL(OAuth2.authorizeUrl({ ...base, scopeSeparator: ",", clientIdParam: "client_key" }))
    assert.strictEqual(url.searchParams.get("scope"), "read,write:posts")
    assert.strictEqual(url.searchParams.get("client_key"), "client 1")
    assert.isNull(url.searchParams.get("client_id"))
  })

  it("adds the network's own parameters last, in their order, after the challenge", () => {
    const url = OAuth2.authorizeUrl({ ...base, codeChallenge: "c", extra: { access_type: "offline", prompt: "consent" } })
    assert.deepStrictEqual(query(url).slice(5).map(([name]) => name), [
      "code_challenge", "code_challenge_method", "access_type", "prompt"
    ])
  })

  it("escapes every value, so a callback's own query or a state's reserved characters cannot add parameters", () => {
    const url = OAuth2.authorizeUrl({ ...base, state: "a&scope=admin#x", redirectUri: "https://h.example/cb?a=1&b=2" })
    assert.strictEqual(
      url,
      "https://auth.example/oauth/authorize?response_type=code&client_id=client+1" +
        "&redirect_uri=https%3A%2F%2Fh.example%2Fcb%3Fa%3D1%26b%3D2&scope=read+write%3Aposts&state=a%26scope%3Dadmin%23x"
    )
    assert.deepStrictEqual(new URL(url).searchParams.getAll("scope"), ["read write:posts"])
  })
})

describe("OAuth2.tokenRequest", () => {
  const client = { endpoint: "https://auth.example/oauth/token", clientId: "client-1", clientSecret: Redacted.make("s3cret") }

  it("redeems a code with the secret in the form (RFC 6749 §4.1.3), the verifier when there is one", () => {
    const withVerifier = sent(OAuth2.tokenRequest({
      ...client,
      auth: "body",
      grant: { _tag: "AuthorizationCode", code: "the-code", redirectUri: "https://herald.example/cb", codeVerifier: "v" }
    }))
    assert.deepStrictEqual(withVerifier.form, {
      grant_type: "authorization_code",
      code: "the-code",
      redirect_uri: "https://herald.example/cb",
      code_verifier: "v",
      client_id: "client-1",
      client_secret: "s3cret"
    })
    assert.isUndefined(withVerifier.authorization)
    const without = sent(OAuth2.tokenRequest({
      ...client,
      auth: "body",
      grant: { _tag: "AuthorizationCode", code: "the-code", redirectUri: "https://herald.example/cb" }
    }))
    assert.notProperty(without.form, "code_verifier")
  })

  it("refreshes (§6) with HTTP Basic: the secret never in the form, the client id still there", () => {
    const request = OAuth2.tokenRequest({
      ...client,
      auth: "basic",
      grant: { _tag: "RefreshToken", refreshToken: Redacted.make("r-1") }
    })
    assert.strictEqual(request.url, "https://auth.example/oauth/token")
    const { authorization, form } = sent(request)
    assert.deepStrictEqual(form, { grant_type: "refresh_token", refresh_token: "r-1", client_id: "client-1" })
    assert.strictEqual(authorization, `Basic ${Buffer.from("client-1:s3cret").toString("base64")}`)
  })

  it("names the client as the network does and adds its own parameters", () => {
    const { form } = sent(OAuth2.tokenRequest({
      ...client,
      clientIdParam: "client_key",
      auth: "body",
      grant: { _tag: "RefreshToken", refreshToken: Redacted.make("r-1") },
      extra: { scope: "read write" }
    }))
    assert.strictEqual(form["client_key"], "client-1")
    assert.notProperty(form, "client_id")
    assert.strictEqual(form["scope"], "read write")
  })
})

describe("OAuth2.tokensOf", () => {
  const previousRefreshToken = Option.some(Redacted.make("refresh-old"))
  const requested = ["openid", "w_member_social"]
  const reveal = (tokens: ReturnType<typeof OAuth2.tokensOf>) => ({
    access: Redacted.value(tokens.accessToken),
    refresh: Option.getOrNull(Option.map(tokens.refreshToken, Redacted.value)),
    expiresAt: Option.getOrNull(tokens.expiresAt),
    scopes: tokens.scopes
  })

  it("reads a full answer: the new refresh token, the lifetime from now, the granted scopes", () => {
    const answer = { access_token: "a", expires_in: 3600, refresh_token: "refresh-new", scope: "openid profile" }
    assert.deepStrictEqual(reveal(OAuth2.tokensOf(answer, { now: 1_000, previousRefreshToken, requested })), {
      access: "a",
      refresh: "refresh-new",
      expiresAt: 3_601_000,
      scopes: ["openid", "profile"]
    })
  })

  it("keeps the refresh token Herald has when a refresh answers none, and the asked scopes when it names none", () => {
    const tokens = OAuth2.tokensOf({ access_token: "a" }, { now: 1_000, previousRefreshToken, requested })
    assert.deepStrictEqual(reveal(tokens), { access: "a", refresh: "refresh-old", expiresAt: null, scopes: requested })
  })

  it("splits a comma-separated scope, spaces and all, when the network separates with commas", () => {
    const answer = { access_token: "a", scope: "openid, profile,w_member_social" }
    const tokens = OAuth2.tokensOf(answer, { now: 0, previousRefreshToken: Option.none(), requested, scopeSeparator: "," })
    assert.deepStrictEqual(tokens.scopes, ["openid", "profile", "w_member_social"])
  })
})
