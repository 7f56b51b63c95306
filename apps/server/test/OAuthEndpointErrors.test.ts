import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { unreachable } from "@herald/db/testing"
import { baseUrl, request, serverLayer } from "./harness.ts"

// Every error of the OAuth endpoints in OAuth's shape, whichever layer answers it (issue 30): the text rule, the
// router's wrong method, a body too large, a refused Basic client id and a database that cannot be reached get
// `{ error, error_description }` at /token, /register and /revoke (RFC 6749 section 5.2, RFC 7591 section 3.2.2),
// and a page at /authorize, which a person's browser opens.

const formBody = (body: string, headers: Record<string, string> = {}) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  body
})
const basic = (credentials: string) => ({ authorization: `Basic ${Buffer.from(credentials, "utf8").toString("base64")}` })

const assertOAuthError = (
  answer: { readonly status: number; readonly body: any; readonly text: string; readonly headers: Headers },
  status: number,
  error: string
) => {
  assert.strictEqual(answer.status, status, answer.text)
  assert.deepStrictEqual(Object.keys(answer.body).sort(), ["error", "error_description"], answer.text)
  assert.strictEqual(answer.body.error, error, answer.text)
  assert.isString(answer.body.error_description)
  assert.strictEqual(answer.headers.get("cache-control"), "no-store")
  // Browser-based clients read the error from another origin.
  assert.strictEqual(answer.headers.get("access-control-allow-origin"), "*")
}

const { backend, outage } = unreachable()

layer(serverLayer({}, undefined, backend), { excludeTestServices: true })("the OAuth endpoints' errors", (it) => {
  it.effect("a wrong method is 405 with Allow, in OAuth's shape", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      for (const path of ["/token", "/register", "/revoke"]) {
        const answer = yield* request(`${base}${path}`)
        assertOAuthError(answer, 405, "invalid_request")
        assert.strictEqual(answer.headers.get("allow"), "OPTIONS, POST")
        assert.match(answer.body.error_description, new RegExp(`GET is not supported on ${path}`))
      }
      const authorize = yield* request(`${base}/authorize`, formBody("a=b"))
      assert.strictEqual(authorize.status, 405)
      assert.strictEqual(authorize.headers.get("allow"), "GET")
      assert.match(authorize.headers.get("content-type") ?? "", /^text\/html/)
    }))

  it.effect("text breaking the text rule is invalid_request, or invalid_client_metadata for a registration", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const token = yield* request(`${base}/token`, formBody("grant_type=authorization_code&code=a%00b"))
      assertOAuthError(token, 400, "invalid_request")
      assert.match(token.body.error_description, /NUL/)
      assertOAuthError(yield* request(`${base}/revoke`, formBody("token=%00")), 400, "invalid_request")
      const registration = yield* request(`${base}/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ client_name: "a\u0000b", redirect_uris: ["https://client.example/callback"] })
      })
      assertOAuthError(registration, 400, "invalid_client_metadata")
      // /authorize is opened by a person: a page saying what is wrong.
      const authorize = yield* request(`${base}/authorize?client_id=%00`)
      assert.strictEqual(authorize.status, 400)
      assert.match(authorize.text, /<h1>Herald cannot go on with this sign-in<\/h1>.*NUL/s)
    }))

  it.effect("a Basic client id with a NUL, or one not registered, is 401 invalid_client with a Basic challenge", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const body = "grant_type=authorization_code&code=abc&code_verifier=" + "x".repeat(43)
      for (const credentials of ["mcl_\u0000x:", "mcl_nobody:"]) {
        const answer = yield* request(`${base}/token`, formBody(body, basic(credentials)))
        assertOAuthError(answer, 401, "invalid_client")
        assert.match(answer.headers.get("www-authenticate") ?? "", /^Basic realm="Herald"/)
      }
    }))

  it.effect("a body over the limit is 413 invalid_request", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const answer = yield* request(`${base}/token`, formBody(`grant_type=${"a".repeat(2 * 1024 * 1024)}`))
      assertOAuthError(answer, 413, "invalid_request")
    }))

  it.effect("a database that cannot be reached is 503 temporarily_unavailable with Retry-After", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      outage.stop()
      try {
        const answers = [
          yield* request(`${base}/token`, formBody("grant_type=refresh_token&refresh_token=abc&client_id=mcl_x")),
          yield* request(`${base}/register`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ client_name: "Assistant", redirect_uris: ["https://client.example/callback"] })
          }),
          yield* request(`${base}/revoke`, formBody("token=abc"))
        ]
        for (const answer of answers) {
          assertOAuthError(answer, 503, "temporarily_unavailable")
          assert.strictEqual(answer.headers.get("retry-after"), "5")
        }
        const authorize = yield* request(`${base}/authorize?client_id=mcl_x&response_type=code`)
        assert.strictEqual(authorize.status, 503)
        assert.strictEqual(authorize.headers.get("retry-after"), "5")
        assert.match(authorize.text, /storage cannot be reached/)
      } finally {
        outage.restore()
      }
    }))
})
