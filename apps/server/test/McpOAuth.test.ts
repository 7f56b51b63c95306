import { assert, layer } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { backends } from "@herald/db/testing"
import { Permissions } from "@herald/domain"
import { bearer, examplePackage, freePort, request, serverLayer, workspaceWithKey } from "./harness.ts"
import * as McpClient from "./mcpClient.ts"
import { connectWith, consentRequest, memoryProvider, setup, signInWithSdk } from "./mcpOAuth.ts"

// Herald as an OAuth 2.1 authorization server for /api/mcp (decision 0045), with the MCP SDK's own client:
// discovery from the 401, registration, PKCE, consent through the console's API, tokens acting as the member,
// refresh with rotation, revocation; and what wrong, expired and revoked tokens are answered.

const mcpHeaders = { "content-type": "application/json", accept: "application/json, text/event-stream" }
const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } }
})
const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString()
})

for (const backend of backends()) {
  // The public address must be the one clients reach: the resource and the issuer are named by it.
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const mcpUrl = `${base}/api/mcp`
  layer(serverLayer({ port, baseUrl: Option.some(base) }, [examplePackage], backend), { excludeTestServices: true })(
    `OAuth for /api/mcp on ${backend.name}`,
    (it) => {
      it.effect("publishes the resource's and the authorization server's metadata, and the 401 points at it", () =>
        Effect.gen(function*() {
          for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/api/mcp"]) {
            const answer = yield* request(`${base}${path}`)
            assert.strictEqual(answer.status, 200, path)
            assert.deepInclude(answer.body, {
              resource: mcpUrl,
              authorization_servers: [base],
              bearer_methods_supported: ["header"],
              scopes_supported: ["mcp"]
            })
          }
          for (const path of ["/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"]) {
            const answer = yield* request(`${base}${path}`)
            assert.strictEqual(answer.status, 200, path)
            assert.deepInclude(answer.body, {
              issuer: base,
              authorization_endpoint: `${base}/authorize`,
              token_endpoint: `${base}/token`,
              registration_endpoint: `${base}/register`,
              revocation_endpoint: `${base}/revoke`,
              response_types_supported: ["code"],
              grant_types_supported: ["authorization_code", "refresh_token"],
              code_challenge_methods_supported: ["S256"],
              token_endpoint_auth_methods_supported: ["none"]
            })
          }
          const refused = yield* request(mcpUrl, { method: "POST", headers: mcpHeaders, body: initialize })
          assert.strictEqual(refused.status, 401)
          assert.strictEqual(refused.body.error.code, "unauthorized")
          assert.include(
            refused.headers.get("www-authenticate")!,
            `resource_metadata="${base}/.well-known/oauth-protected-resource/api/mcp"`
          )
          // REST is not an OAuth resource: its challenge names no metadata.
          const rest = yield* request(`${base}/api/v1/accounts`)
          assert.notInclude(rest.headers.get("www-authenticate")!, "resource_metadata")
        }))

      it.effect("registers clients with https or loopback redirect URIs, and refuses others", () =>
        Effect.gen(function*() {
          const register = (body: unknown) =>
            request(`${base}/register`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
          const registered = yield* register({ client_name: "Claude", redirect_uris: ["https://claude.ai/api/mcp/auth_callback"] })
          assert.strictEqual(registered.status, 201, registered.text)
          assert.match(registered.body.client_id, /^mcl_/)
          assert.deepInclude(registered.body, {
            client_name: "Claude",
            redirect_uris: ["https://claude.ai/api/mcp/auth_callback"],
            token_endpoint_auth_method: "none",
            grant_types: ["authorization_code", "refresh_token"],
            response_types: ["code"]
          })
          assert.isNumber(registered.body.client_id_issued_at)
          assert.strictEqual((yield* register({ client_name: "Local", redirect_uris: ["http://localhost:3334/cb"] })).status, 201)
          for (const uri of ["http://evil.example/cb", "myapp://callback", "https://claude.ai/cb#fragment", "not a url"]) {
            const refused = yield* register({ client_name: "Bad", redirect_uris: [uri] })
            assert.strictEqual(refused.status, 400, uri)
            assert.strictEqual(refused.body.error, "invalid_redirect_uri", uri)
            assert.isString(refused.body.error_description)
          }
          assert.strictEqual((yield* register({ client_name: "None" })).body.error, "invalid_redirect_uri")
        }))

      it.effect("/authorize never redirects to an unknown client's URI; other problems go back to a client someone connected, and are shown on Herald's page for one nobody did", () =>
        Effect.gen(function*() {
          const callback = "http://127.0.0.1:7777/callback"
          const registered = yield* request(`${base}/register`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ client_name: "T", redirect_uris: [callback] })
          })
          const clientId: string = registered.body.client_id
          const valid = {
            response_type: "code",
            client_id: clientId,
            redirect_uri: callback,
            code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
            code_challenge_method: "S256",
            state: "s1",
            resource: mcpUrl
          }
          const authorize = (query: Record<string, string>) =>
            Effect.promise(() => fetch(`${base}/authorize?${new URLSearchParams(query)}`, { redirect: "manual" }))
          const unknown = yield* authorize({ ...valid, client_id: "mcl_nobody" })
          assert.strictEqual(unknown.status, 400)
          assert.include(yield* Effect.promise(() => unknown.text()), "not registered")
          assert.strictEqual((yield* authorize({ ...valid, redirect_uri: "http://127.0.0.1:7777/elsewhere" })).status, 400)
          const { code_challenge: _, ...withoutPkce } = valid
          const cases: ReadonlyArray<readonly [Record<string, string>, string]> = [
            [withoutPkce, "invalid_request"],
            [{ ...valid, code_challenge_method: "plain" }, "invalid_request"],
            [{ ...valid, resource: `${base}/api/v1` }, "invalid_target"],
            [{ ...valid, response_type: "token" }, "unsupported_response_type"]
          ]
          // Nobody has connected this client yet: anyone may register any https address, so its errors are never
          // sent there (an open redirect, issue 28) but shown on Herald's own page.
          for (const [query, error] of cases) {
            const answer = yield* authorize(query)
            assert.strictEqual(answer.status, 400)
            assert.include(yield* Effect.promise(() => answer.text()), error)
          }
          // Once someone has connected it, its errors go back to it, as OAuth says.
          const sql = yield* SqlClient.SqlClient
          const { workspace } = yield* workspaceWithKey(`Grant ${clientId}`, `grant-${clientId}@example.test`)
          yield* Effect.orDie(sql`
            INSERT INTO oauth_grants (id, client_id, workspace_id, member_id, resource, scopes)
            SELECT ${`ogr_${clientId}`}, ${clientId}, ${workspace.id}, id, ${mcpUrl}, '["mcp"]'::jsonb
            FROM members WHERE workspace_id = ${workspace.id}`)
          for (const [query, error] of cases) {
            const answer = yield* authorize(query)
            assert.strictEqual(answer.status, 302)
            const location = new URL(answer.headers.get("location")!)
            assert.strictEqual(`${location.origin}${location.pathname}`, callback)
            assert.strictEqual(location.searchParams.get("error"), error)
            assert.strictEqual(location.searchParams.get("state"), "s1")
            assert.isNotNull(location.searchParams.get("error_description"))
          }
          const ok = yield* authorize(valid)
          assert.strictEqual(ok.status, 302)
          assert.match(ok.headers.get("location")!, new RegExp(`^${base}/app/oauth/consent\\?request=oar_`))
          // A state longer than 1,024 characters is refused on Herald's page, before anything is stored.
          const long = yield* authorize({ ...valid, state: "s".repeat(1025) })
          assert.strictEqual(long.status, 400)
          assert.include(yield* Effect.promise(() => long.text()), "state is longer than 1024 characters")
        }))

      it.effect("/authorize keeps at most 50 requests of one client waiting, so requests cannot fill the database", () =>
        Effect.gen(function*() {
          const callback = "http://127.0.0.1:7777/callback"
          const registered = yield* request(`${base}/register`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ client_name: "Flood", redirect_uris: [callback] })
          })
          const query = new URLSearchParams({
            response_type: "code",
            client_id: registered.body.client_id,
            redirect_uri: callback,
            code_challenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
            code_challenge_method: "S256",
            resource: mcpUrl
          })
          const statuses: Array<number> = []
          for (let sent = 0; sent < 51; sent++) {
            statuses.push((yield* Effect.promise(() => fetch(`${base}/authorize?${query}`, { redirect: "manual" }))).status)
          }
          assert.deepStrictEqual(statuses.slice(0, 50), Array.from({ length: 50 }, () => 302))
          assert.strictEqual(statuses[50], 400)
          const sql = yield* SqlClient.SqlClient
          const [stored] = yield* Effect.orDie(sql<{ readonly count: number }>`
            SELECT count(*)::int AS count FROM oauth_requests WHERE client_id = ${registered.body.client_id}`)
          assert.strictEqual(stored!.count, 50)
        }))

      it.effect("the SDK's client signs in through consent, then lists and calls tools as the member", () =>
        Effect.gen(function*() {
          const { accountIds, owner, workspace } = yield* setup(base)
          const { provider, stored } = yield* signInWithSdk(mcpUrl, owner, workspace.id)
          assert.match(stored.tokens!.access_token, /^hrat_/)
          assert.strictEqual(stored.tokens!.token_type.toLowerCase(), "bearer")
          assert.strictEqual(stored.tokens!.expires_in, 3600)
          assert.match(stored.tokens!.refresh_token!, /^hrrt_/)
          const client = yield* connectWith(mcpUrl, provider)
          const tools = yield* Effect.promise(() => client.listTools())
          assert.include(tools.tools.map((tool) => tool.name), "create_post")
          const created = yield* McpClient.call(client, "create_post", { content: "From an assistant", accountIds, draft: true })
          assert.notOk(created.isError, JSON.stringify(created.content))
          const postId = (created.structuredContent as any).data.id
          const read = yield* owner("GET", `/posts/${postId}`)
          assert.strictEqual(read.status, 200)
          assert.strictEqual(read.body.data.content, "From an assistant")

          // The connection is listed for the workspace, with the member it acts as.
          const grants = yield* owner("GET", "/oauth/grants")
          assert.strictEqual(grants.status, 200, grants.text)
          assert.lengthOf(grants.body.data, 1)
          assert.deepInclude(grants.body.data[0], { email: grants.body.data[0].email, role: "owner" })
          assert.strictEqual(grants.body.data[0].client.name, "Test assistant")
          assert.match(grants.body.data[0].email, /^owner@/)
        }))

      it.effect("refresh tokens rotate; reusing an old one disconnects the assistant", () =>
        Effect.gen(function*() {
          const { owner, workspace } = yield* setup(base)
          const { provider, stored } = yield* signInWithSdk(mcpUrl, owner, workspace.id)
          const clientId = (stored.client as { client_id: string }).client_id
          const first = stored.tokens!
          // An expired access token: the SDK refreshes on the 401 and carries on.
          const sql = yield* SqlClient.SqlClient
          yield* Effect.orDie(sql`UPDATE oauth_tokens SET expires_at = now() - interval '1 second' WHERE kind = 'access'`)
          const expired = yield* request(mcpUrl, { method: "POST", headers: { ...mcpHeaders, ...bearer(first.access_token) }, body: initialize })
          assert.strictEqual(expired.status, 401)
          assert.match(expired.body.error.message, /expired/)
          assert.include(expired.headers.get("www-authenticate")!, `error="invalid_token"`)
          assert.include(expired.headers.get("www-authenticate")!, "resource_metadata=")
          const client = yield* connectWith(mcpUrl, provider)
          assert.notStrictEqual(stored.tokens!.refresh_token, first.refresh_token)
          assert.isAbove((yield* Effect.promise(() => client.listTools())).tools.length, 0)

          // The first refresh token was used: presenting it again ends the grant, new tokens included.
          const reused = yield* request(`${base}/token`, form({ grant_type: "refresh_token", refresh_token: first.refresh_token!, client_id: clientId }))
          assert.strictEqual(reused.status, 400)
          assert.strictEqual(reused.body.error, "invalid_grant")
          const after = yield* request(mcpUrl, {
            method: "POST",
            headers: { ...mcpHeaders, ...bearer(stored.tokens!.access_token) },
            body: initialize
          })
          assert.strictEqual(after.status, 401)
          assert.match(after.body.error.message, /disconnected/)
          assert.lengthOf((yield* owner("GET", "/oauth/grants")).body.data, 0)
        }))

      it.effect("the token endpoint checks PKCE, the code's single use and the client", () =>
        Effect.gen(function*() {
          const { owner, workspace } = yield* setup(base)
          const { provider, stored } = memoryProvider()
          yield* Effect.promise(() =>
            new Client({ name: "t", version: "1" }).connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }))
              .catch(() => undefined)
          )
          const requestId = yield* consentRequest(stored.authorizationUrl!.toString())
          const approved = yield* owner("POST", `/oauth/requests/${requestId}/approve`, { workspaceId: workspace.id })
          const code = new URL(approved.body.data.redirectTo).searchParams.get("code")!
          const clientId = (stored.client as { client_id: string }).client_id
          const exchange = (fields: Record<string, string>) =>
            request(`${base}/token`, form({ grant_type: "authorization_code", code, client_id: clientId, redirect_uri: provider.redirectUrl!.toString(), ...fields }))
          const wrongVerifier = yield* exchange({ code_verifier: "x".repeat(43) })
          assert.strictEqual(wrongVerifier.status, 400)
          assert.strictEqual(wrongVerifier.body.error, "invalid_grant")
          assert.strictEqual((yield* exchange({ code_verifier: stored.verifier!, client_id: "mcl_other" })).body.error, "invalid_client")
          assert.strictEqual((yield* exchange({ code_verifier: stored.verifier!, resource: `${base}/api/v1` })).body.error, "invalid_target")
          // The client's id the client_secret_basic way, as some clients send it whatever was registered.
          const issued = yield* request(`${base}/token`, {
            method: "POST",
            headers: {
              "content-type": "application/x-www-form-urlencoded",
              authorization: `Basic ${Buffer.from(`${clientId}:`).toString("base64")}`
            },
            body: new URLSearchParams({
              grant_type: "authorization_code",
              code,
              redirect_uri: provider.redirectUrl!.toString(),
              code_verifier: stored.verifier!,
              resource: mcpUrl
            }).toString()
          })
          assert.strictEqual(issued.status, 200, issued.text)
          assert.strictEqual(issued.headers.get("cache-control"), "no-store")
          assert.deepInclude(issued.body, { token_type: "Bearer", expires_in: 3600, scope: "mcp" })
          // The code a second time: refused, and the tokens it gave are revoked.
          assert.strictEqual((yield* exchange({ code_verifier: stored.verifier! })).body.error, "invalid_grant")
          const revoked = yield* request(mcpUrl, { method: "POST", headers: { ...mcpHeaders, ...bearer(issued.body.access_token) }, body: initialize })
          assert.strictEqual(revoked.status, 401)
          assert.strictEqual((yield* request(`${base}/token`, form({ grant_type: "password" }))).body.error, "unsupported_grant_type")
          assert.strictEqual((yield* request(`${base}/token`, form({ grant_type: "authorization_code" }))).body.error, "invalid_request")
        }))

      it.effect("disconnecting in Settings and /revoke stop tokens at once; unknown tokens are 401 with the challenge", () =>
        Effect.gen(function*() {
          const { owner, workspace } = yield* setup(base)
          const first = yield* signInWithSdk(mcpUrl, owner, workspace.id)
          const second = yield* signInWithSdk(mcpUrl, owner, workspace.id)
          const post = (token: string) => request(mcpUrl, { method: "POST", headers: { ...mcpHeaders, ...bearer(token) }, body: initialize })
          assert.strictEqual((yield* post(first.stored.tokens!.access_token)).status, 200)
          const grants = (yield* owner("GET", "/oauth/grants")).body.data as ReadonlyArray<{ id: string }>
          assert.lengthOf(grants, 2)
          // The newest is listed first: the second sign-in.
          const disconnected = yield* owner("DELETE", `/oauth/grants/${grants[1]!.id}`)
          assert.deepStrictEqual(disconnected.body, { data: { id: grants[1]!.id, revoked: true } })
          const refused = yield* post(first.stored.tokens!.access_token)
          assert.strictEqual(refused.status, 401)
          assert.match(refused.body.error.message, /disconnected/)
          assert.match(refused.headers.get("www-authenticate")!, /^Bearer realm="herald", resource_metadata="[^"]+", error="invalid_token", error_description="[^"]+"$/)
          assert.strictEqual((yield* owner("DELETE", `/oauth/grants/${grants[1]!.id}`)).status, 404)

          assert.strictEqual((yield* post(second.stored.tokens!.access_token)).status, 200)
          const revoked = yield* request(`${base}/revoke`, form({ token: second.stored.tokens!.refresh_token! }))
          assert.strictEqual(revoked.status, 200)
          assert.strictEqual((yield* post(second.stored.tokens!.access_token)).status, 401)
          assert.strictEqual((yield* request(`${base}/revoke`, form({ token: "hrat_nothing" }))).status, 200)

          const unknown = yield* post("hrat_not-a-token")
          assert.strictEqual(unknown.status, 401)
          assert.match(unknown.body.error.message, /^Invalid access token/)
          assert.include(unknown.headers.get("www-authenticate")!, `error="invalid_token"`)
        }))

      it.effect("a viewer's assistant reads but cannot write; an API key still works; the console API needs a session", () =>
        Effect.gen(function*() {
          const { accountIds, key, viewer, workspace } = yield* setup(base)
          const { provider } = yield* signInWithSdk(mcpUrl, viewer, workspace.id)
          const client = yield* connectWith(mcpUrl, provider)
          const listed = yield* McpClient.call(client, "list_posts")
          assert.notOk(listed.isError, JSON.stringify(listed.content))
          const refused = yield* McpClient.call(client, "create_post", { content: "A viewer's assistant", accountIds, draft: true })
          assert.isTrue(refused.isError)
          assert.include(JSON.stringify(refused.content), "forbidden")
          // A viewer sees their own connection only, and may disconnect it.
          assert.lengthOf((yield* viewer("GET", "/oauth/grants")).body.data, 1)

          const keyed = yield* McpClient.connect(base, key.key)
          const created = yield* McpClient.call(keyed, "create_post", { content: "With a key", accountIds, draft: true })
          assert.notOk(created.isError, JSON.stringify(created.content))

          const withKey = yield* request(`${base}/api/v1/oauth/grants`, { headers: bearer(key.key) })
          assert.strictEqual(withKey.status, 401)
          const missing = yield* viewer("GET", "/oauth/requests/oar_nothing")
          assert.strictEqual(missing.status, 404)
          assert.strictEqual(missing.body.error.code, "not_found")
        }))

      it.effect("the consent page's request names the client and the person's workspaces; deny sends access_denied", () =>
        Effect.gen(function*() {
          const { owner, workspace } = yield* setup(base)
          const { provider, stored } = memoryProvider()
          yield* Effect.promise(() =>
            new Client({ name: "t", version: "1" }).connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }))
              .catch(() => undefined)
          )
          const requestId = yield* consentRequest(stored.authorizationUrl!.toString())
          const shown = yield* owner("GET", `/oauth/requests/${requestId}`)
          assert.strictEqual(shown.status, 200, shown.text)
          assert.deepInclude(shown.body.data, {
            id: requestId,
            redirectUri: "http://127.0.0.1:7777/callback",
            resource: mcpUrl,
            scopes: ["mcp"]
          })
          assert.strictEqual(shown.body.data.client.name, "Test assistant")
          assert.deepInclude(shown.body.data.workspaces, {
            id: workspace.id,
            name: workspace.name,
            role: "owner",
            permissions: [...Permissions.actions],
            mayPublishDirectly: true
          })
          const notMine = yield* owner("POST", `/oauth/requests/${requestId}/approve`, { workspaceId: "ws_nothing" })
          assert.strictEqual(notMine.status, 400)
          const denied = yield* owner("POST", `/oauth/requests/${requestId}/deny`)
          assert.strictEqual(denied.status, 200, denied.text)
          const redirectTo = new URL(denied.body.data.redirectTo)
          assert.strictEqual(redirectTo.searchParams.get("error"), "access_denied")
          assert.strictEqual(redirectTo.searchParams.get("state"), "the-state")
          // Answered once.
          assert.strictEqual((yield* owner("GET", `/oauth/requests/${requestId}`)).status, 404)
        }))
    }
  )
}
