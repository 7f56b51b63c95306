import { assert } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js"
import { Effect } from "effect"
import { People, Team } from "@herald/core"
import { acceptAs, request, workspaceWithKey } from "./harness.ts"
import * as SandboxConnect from "../src/SandboxConnect.ts"

// An MCP SDK client signing in to Herald's OAuth server as an assistant does, for the tests of /api/mcp with
// OAuth (decisions 0045 and 0048): a workspace whose people can sign in to the console, the SDK's sign-in up
// to the browser step, the person's consent through the console's API, and a client with the tokens.

const password = "correct horse battery"

/** An OAuth client as an assistant keeps one: in memory, its browser step left to the test. */
export const memoryProvider = (redirectUrl = "http://127.0.0.1:7777/callback") => {
  const stored: { client?: OAuthClientInformationMixed; tokens?: OAuthTokens; verifier?: string; authorizationUrl?: URL } = {}
  const provider: OAuthClientProvider = {
    redirectUrl,
    clientMetadata: { client_name: "Test assistant", redirect_uris: [redirectUrl] },
    state: () => "the-state",
    clientInformation: () => stored.client,
    saveClientInformation: (client) => {
      stored.client = client
    },
    tokens: () => stored.tokens,
    saveTokens: (tokens) => {
      stored.tokens = tokens
    },
    redirectToAuthorization: (url) => {
      stored.authorizationUrl = url
    },
    saveCodeVerifier: (verifier) => {
      stored.verifier = verifier
    },
    codeVerifier: () => stored.verifier ?? ""
  }
  return { provider, stored }
}

let count = 0

/** A workspace whose owner (and a viewer) can sign in, and a caller for the console's API with a session. */
export const setup = (base: string) =>
  Effect.gen(function*() {
    const tag = `o${++count}${Date.now().toString(36)}`
    const { key, workspace } = yield* workspaceWithKey(`WS ${tag}`, `owner@${tag}.test`)
    const people = yield* People.People
    const team = yield* Team.Team
    const person = (email: string, role: string) =>
      Effect.gen(function*() {
        if (role !== "owner") {
          const invitation = yield* team.invite(workspace.id, { email, role })
          yield* acceptAs(invitation)
        }
        const found = yield* people.ensure(email)
        yield* people.setPassword(found.id, password)
      }).pipe(Effect.orDie)
    yield* person(`owner@${tag}.test`, "owner")
    yield* person(`viewer@${tag}.test`, "viewer")
    const signIn = (email: string) =>
      Effect.gen(function*() {
        const answer = yield* request(`${base}/api/v1/auth/sign-in`, {
          method: "POST",
          headers: { origin: base, "content-type": "application/json" },
          body: JSON.stringify({ email, password })
        })
        assert.strictEqual(answer.status, 200, answer.text)
        const cookie = answer.headers.get("set-cookie")!.split(";")[0]!
        const csrfToken: string = answer.body.data.csrfToken
        return (method: string, path: string, body?: unknown) =>
          request(`${base}/api/v1${path}`, {
            method,
            headers: {
              origin: base,
              cookie,
              "x-csrf-token": csrfToken,
              ...(body === undefined ? {} : { "content-type": "application/json" })
            },
            ...(body === undefined ? {} : { body: JSON.stringify(body) })
          })
      })
    const account = yield* Effect.orDie(SandboxConnect.connect({ workspaceId: workspace.id, platform: "example", username: `${tag}_a` }))
    return { tag, key, workspace, accountIds: [account.id], owner: yield* signIn(`owner@${tag}.test`), viewer: yield* signIn(`viewer@${tag}.test`) }
  })

export type Console = Effect.Success<ReturnType<typeof setup>>["owner"]

/** Follows `/authorize` to the consent page's request id, as the browser would. */
export const consentRequest = (authorizationUrl: string) =>
  Effect.gen(function*() {
    const answer = yield* Effect.promise(() => fetch(authorizationUrl, { redirect: "manual" }))
    assert.strictEqual(answer.status, 302)
    const location = new URL(answer.headers.get("location")!)
    assert.strictEqual(location.pathname, "/app/oauth/consent")
    return location.searchParams.get("request")!
  })

/** The SDK's whole sign-in: a 401, discovery, registration, the person's consent, the code for tokens. */
export const signInWithSdk = (mcpUrl: string, person: Console, workspaceId: string, consent: { readonly publishesDirectly?: boolean } = {}) =>
  Effect.gen(function*() {
    const { provider, stored } = memoryProvider()
    const first = yield* Effect.promise(() =>
      new Client({ name: "t", version: "1" }).connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }))
        .then(() => "connected", (error: Error) => error.message)
    )
    // The SDK stops at the browser step: it has registered and sent the person to /authorize.
    assert.strictEqual(first, "Unauthorized")
    const authorizationUrl = stored.authorizationUrl!
    assert.strictEqual(authorizationUrl.searchParams.get("code_challenge_method"), "S256")
    assert.strictEqual(authorizationUrl.searchParams.get("resource"), mcpUrl)
    const requestId = yield* consentRequest(authorizationUrl.toString())
    const approved = yield* person("POST", `/oauth/requests/${requestId}/approve`, { workspaceId, ...consent })
    assert.strictEqual(approved.status, 200, approved.text)
    const redirectTo = new URL(approved.body.data.redirectTo)
    assert.strictEqual(redirectTo.searchParams.get("state"), "the-state")
    const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider })
    yield* Effect.promise(() => transport.finishAuth(redirectTo.searchParams.get("code")!))
    return { provider, stored }
  })

export const connectWith = (mcpUrl: string, provider: OAuthClientProvider) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const client = new Client({ name: "t", version: "1" })
      await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { authProvider: provider }))
      return client
    }),
    (client) => Effect.promise(() => client.close())
  )
