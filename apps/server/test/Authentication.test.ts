import { assert, layer } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect } from "effect"
import { ApiKeys } from "@herald/core"
import { baseUrl, bearer, request, serverLayer, workspaceWithKey } from "./harness.ts"

// What a person or a client meets when a request is not authenticated: every 401, REST and MCP, says how to
// authenticate in its body and in `WWW-Authenticate` (which OAuth-capable MCP clients read instead of the
// body); on /api/mcp the challenge also names the OAuth resource metadata, where those clients sign in.

const howTo = "Send an API key as `Authorization: Bearer <key>`; create one in the console (Settings > API keys) or with `herald key create --workspace <ws_...>`"

// RFC 6750, section 3: the challenge's syntax, error_description limited to %x20-21 / %x23-5B / %x5D-7E;
// on /api/mcp, the resource metadata that starts an OAuth client's sign-in (RFC 9728, decision 0045).
const challengeSyntax =
  /^Bearer realm="herald"(?:, resource_metadata="http:\/\/[^"]+\/\.well-known\/oauth-protected-resource\/api\/mcp")?(?:, error="invalid_token")?, error_description="[\x20\x21\x23-\x5B\x5D-\x7E]*"$/

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } }
})
const mcpHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" }

/** A 401 that says what is wrong and how to authenticate, in the body and in the header alike. */
const expectRefusal = (
  answer: { readonly status: number; readonly body: any; readonly headers: Headers },
  problem: RegExp,
  invalidToken: boolean
) => {
  assert.strictEqual(answer.status, 401, JSON.stringify(answer.body))
  assert.strictEqual(answer.body.error.code, "unauthorized")
  const message: string = answer.body.error.message
  assert.match(message, problem)
  assert.include(message, howTo)
  const header = answer.headers.get("www-authenticate") ?? ""
  assert.match(header, challengeSyntax)
  assert.strictEqual(header.includes(`error="invalid_token"`), invalidToken, header)
  assert.include(header, `error_description="${message}"`)
}

layer(serverLayer(), { excludeTestServices: true })("authentication messages", (it) => {
  it.effect("every REST 401 says how to authenticate, in the body and in WWW-Authenticate", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const apiKeys = yield* ApiKeys.ApiKeys
      const { key, workspace } = yield* workspaceWithKey()
      const revoked = yield* Effect.orDie(apiKeys.create({ workspaceId: workspace.id }))
      yield* Effect.orDie(apiKeys.revoke(revoked.id))
      const wrong = `${key.key.slice(0, -1)}${key.key.at(-1) === "A" ? "B" : "A"}`
      const accounts = `${base}/api/v1/accounts`
      expectRefusal(yield* request(accounts), /^Missing API key/, false)
      expectRefusal(yield* request(accounts, { headers: bearer("not-a-key") }), /^Malformed API key/, true)
      expectRefusal(yield* request(accounts, { headers: bearer(wrong) }), /checksum/, true)
      expectRefusal(yield* request(accounts, { headers: bearer(revoked.key) }), /revoked/, true)
    }))

  it.effect("every MCP 401 says the same, before the transport", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const post = (headers: Record<string, string>) =>
        request(`${base}/api/mcp`, { method: "POST", headers: { ...mcpHeaders, ...headers }, body: initialize })
      expectRefusal(yield* post({}), /^Missing API key/, false)
      expectRefusal(yield* post(bearer("hrld_nope")), /^Malformed API key/, true)
    }))

  it.effect("a key sent some other way than `Bearer <key>` is told the right form, without echoing the key", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      const cases: ReadonlyArray<readonly [headers: Record<string, string>, query: string, problem: RegExp]> = [
        [{ authorization: key.key }, "", /^The Authorization header must be `Bearer <key>`: it holds the key without/],
        // Any single word is taken for a key, and not repeated back.
        [{ authorization: "sk_test_1234" }, "", /^The Authorization header must be `Bearer <key>`: it holds the key without/],
        [{ authorization: `Basic ${Buffer.from(`user:${key.key}`).toString("base64")}` }, "", /must be `Bearer <key>`, not `Basic \.\.\.`/],
        [{ authorization: `Token ${key.key}` }, "", /must be `Bearer <key>`, not `Token \.\.\.`/],
        // Two words whose first does not read like a scheme: not repeated back either.
        [{ authorization: "sk_test_1234 5678" }, "", /must be `Bearer <key>`; it uses another scheme/],
        [{ "x-api-key": key.key }, "", /not from X-API-Key/],
        [{}, `?api_key=${key.key}`, /not from the URL's api_key parameter/]
      ]
      for (const [headers, query, problem] of cases) {
        const rest = yield* request(`${base}/api/v1/accounts${query}`, { headers })
        expectRefusal(rest, problem, false)
        assert.notInclude(rest.text, key.key.slice(5))
        assert.notInclude(rest.text, "sk_test")
        const mcp = yield* request(`${base}/api/mcp${query}`, {
          method: "POST",
          headers: { ...mcpHeaders, ...headers },
          body: initialize
        })
        expectRefusal(mcp, problem, false)
      }
    }))

  it.effect("the Bearer scheme is case-insensitive (RFC 7235), on REST and MCP", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      for (const scheme of ["bearer", "BEARER"]) {
        const headers = { authorization: `${scheme} ${key.key}` }
        assert.strictEqual((yield* request(`${base}/api/v1/accounts`, { headers })).status, 200)
        const mcp = yield* request(`${base}/api/mcp`, { method: "POST", headers: { ...mcpHeaders, ...headers }, body: initialize })
        assert.strictEqual(mcp.status, 200, mcp.text)
      }
    }))

  // With an OAuth provider the SDK's client signs in through Herald's OAuth server: apps/server/test/McpOAuth.test.ts.
  it.effect("the MCP SDK's client without OAuth shows Herald's message", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const shown = yield* Effect.promise(() =>
        new Client({ name: "t", version: "1" }).connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`)))
          .then(() => "connected", (error: Error) => error.message)
      )
      assert.include(shown, howTo)
    }))
})
