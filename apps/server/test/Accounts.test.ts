import { assert, describe, layer } from "@effect/vitest"
import { ConfigProvider, Effect, Layer, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { Cipher, TokenRefresh } from "@herald/core"
import * as Installed from "../src/Installed.ts"
import { baseUrl, bearer, examplePackage, request, serverLayer, workspaceWithKey } from "./harness.ts"

// Connecting accounts end to end over real HTTP: the API answers the consent URL, the network's consent
// screen (the example network's simulator, served by this server under /sandbox/example) redirects to the
// callback, and the account appears in the list with its tokens sealed.
/** `POST /api/v1/accounts/connect/:platform` with a key: how a flow starts. */
const startConnection = (base: string, key: string, body: Record<string, string> = {}, platform = "example") =>
  request(`${base}/api/v1/accounts/connect/${platform}`, {
    method: "POST",
    headers: { ...bearer(key), "content-type": "application/json" },
    body: JSON.stringify(body)
  })

const connect = (base: string, key: string, username: string) =>
  Effect.gen(function*() {
    const started = yield* startConnection(base, key, { username })
    assert.strictEqual(started.status, 200, started.text)
    const consent = yield* Effect.promise(() => fetch(started.body.data.url, { redirect: "manual" }))
    assert.strictEqual(consent.status, 302)
    const callback = consent.headers.get("location")!
    assert.isTrue(callback.startsWith(`${base.replace("127.0.0.1", "localhost")}/oauth/example/callback?`), callback)
    return yield* request(callback.replace("localhost", "127.0.0.1"))
  })

layer(serverLayer(), { excludeTestServices: true })("accounts and networks", (it) => {
  // The example network stands for a third-party adapter package: the server offers it with no change to core.
  it.effect("offers an adapter package from outside the seven, with its limits and capabilities as data", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      const answer = yield* request(`${base}/api/v1/networks`, { headers: bearer(key.key) })
      assert.strictEqual(answer.status, 200, answer.text)
      const example = answer.body.data.find((network: any) => network.key === "example")
      assert.strictEqual(example.name, "Example")
      assert.strictEqual(example.limits.forms.post.text.max, 100)
      assert.strictEqual(example.limits.forms.post.text.counter, "characters")
      assert.isTrue(example.capabilities.reconcile)
      // How to connect it is data too: OAuth, asking (in the sandbox) for the simulated account's name.
      assert.deepStrictEqual(example.connect, {
        method: "oauth",
        fields: [{
          name: "username",
          label: "Sandbox username",
          hint: "The simulated account to connect; a new one when left empty.",
          required: false,
          secret: false
        }]
      })
    }))

  it.effect("connects an account through OAuth; reconnecting keeps its id; tokens are sealed at rest", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key, workspace } = yield* workspaceWithKey()
      const callback = yield* connect(base, key.key, "alice")
      assert.strictEqual(callback.status, 200, callback.text)
      assert.include(callback.text, "@alice")
      const listed = yield* request(`${base}/api/v1/accounts`, { headers: bearer(key.key) })
      assert.strictEqual(listed.body.data.length, 1)
      const account = listed.body.data[0]
      assert.deepInclude(account, { platform: "example", username: "alice", status: "connected" })
      assert.match(account.id, /^acc_/)

      const again = yield* connect(base, key.key, "alice")
      assert.strictEqual(again.status, 200)
      const relisted = yield* request(`${base}/api/v1/accounts`, { headers: bearer(key.key) })
      assert.deepStrictEqual(relisted.body.data.map((entry: any) => entry.id), [account.id])

      const sql = yield* SqlClient.SqlClient
      const [row] = yield* Effect.orDie(sql<{ readonly accessToken: Uint8Array; readonly refreshToken: Uint8Array }>`
        SELECT access_token, refresh_token FROM accounts WHERE id = ${account.id} AND workspace_id = ${workspace.id}
      `)
      const raw = Buffer.from(row!.accessToken).toString("latin1")
      assert.notInclude(raw, "at_")
      const cipher = yield* Cipher.Cipher
      const opened = yield* Effect.orDie(cipher.open(row!.accessToken))
      assert.match(Redacted.value(opened), /^at_/)
    }))

  it.effect("refuses a callback with an unknown or reused state", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      const forged = yield* request(`${base}/oauth/example/callback?code=abc&state=forged`)
      assert.strictEqual(forged.status, 400)
      assert.include(forged.text, "not valid")
      const started = yield* startConnection(base, key.key, { username: "bob" })
      const consent = yield* Effect.promise(() => fetch(started.body.data.url, { redirect: "manual" }))
      const callback = consent.headers.get("location")!.replace("localhost", "127.0.0.1")
      assert.strictEqual((yield* request(callback)).status, 200)
      const reused = yield* request(callback)
      assert.strictEqual(reused.status, 400)
    }))

  it.effect("answers an unknown network with 404 not_found naming the available ones", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      const answer = yield* startConnection(base, key.key, {}, "myspace")
      assert.strictEqual(answer.status, 404)
      assert.strictEqual(answer.body.error.code, "not_found")
      assert.include(answer.body.error.message, "example")
    }))

  it.effect("disconnects an account: it leaves the list and its tokens are deleted", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      yield* connect(base, key.key, "carol")
      const listed = yield* request(`${base}/api/v1/accounts`, { headers: bearer(key.key) })
      const id = listed.body.data[0].id
      const removed = yield* request(`${base}/api/v1/accounts/${id}`, { method: "DELETE", headers: bearer(key.key) })
      assert.strictEqual(removed.status, 200, removed.text)
      assert.deepStrictEqual(removed.body, { data: { id, disconnected: true } })
      const after = yield* request(`${base}/api/v1/accounts`, { headers: bearer(key.key) })
      assert.deepStrictEqual(after.body.data, [])
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* Effect.orDie(sql<{ readonly accessToken: Uint8Array | null }>`
        SELECT access_token FROM accounts WHERE id = ${id}
      `)
      assert.isNull(row!.accessToken)
      const again = yield* request(`${base}/api/v1/accounts/${id}`, { method: "DELETE", headers: bearer(key.key) })
      assert.strictEqual(again.status, 404)
      const events = yield* Effect.orDie(sql<{ readonly event: string; readonly data: any }>`
        SELECT e.event, e.data FROM events e JOIN accounts a ON a.workspace_id = e.workspace_id
        WHERE a.id = ${id} ORDER BY e.sequence`)
      assert.deepStrictEqual(events.map((event) => event.event), ["account.connected", "account.disconnected"])
      assert.deepStrictEqual(events[0]!.data, { accountId: id, platform: "example", username: "carol" })
      assert.deepStrictEqual(events[1]!.data, { accountId: id, platform: "example" })
    }))
})

layer(serverLayer(), { excludeTestServices: true })("token refresh", (it) => {
  const connected = (username: string) =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      yield* connect(base, key.key, username)
      const listed = yield* request(`${base}/api/v1/accounts`, { headers: bearer(key.key) })
      return { base, key, account: listed.body.data[0], simulator: (yield* Installed.Installed).simulators[0]! }
    })

  it.effect("renews an expiring token and keeps the account connected", () =>
    Effect.gen(function*() {
      const { account } = yield* connected("hana")
      const sql = yield* SqlClient.SqlClient
      const before = yield* Effect.orDie(sql<{ readonly accessToken: Uint8Array }>`
        SELECT access_token FROM accounts WHERE id = ${account.id}`)
      yield* Effect.orDie(sql`UPDATE accounts SET token_expires_at = now() WHERE id = ${account.id}`)
      const refresh = yield* TokenRefresh.TokenRefresh
      const outcomes = yield* Effect.orDie(refresh.refreshDue)
      assert.deepInclude(outcomes, { _tag: "Refreshed" })
      const after = yield* Effect.orDie(sql<{ readonly accessToken: Uint8Array; readonly tokenExpiresAt: Date }>`
        SELECT access_token, token_expires_at FROM accounts WHERE id = ${account.id}`)
      assert.notDeepEqual([...after[0]!.accessToken], [...before[0]!.accessToken])
      assert.isAbove(after[0]!.tokenExpiresAt.getTime(), Date.now())
    }))

  it.effect("moves an account to needs_reconnect, with the reason, when the network refuses the refresh", () =>
    Effect.gen(function*() {
      const { account, base, key, simulator } = yield* connected("ivan")
      // The person revoked Herald's access on the network.
      const networkAccount = [...simulator.state.accounts.values()].find((entry) => entry.username === "ivan")!
      simulator.state.revoke(networkAccount.id)
      const refresh = yield* TokenRefresh.TokenRefresh
      const outcome = yield* Effect.orDie(refresh.refresh(account.id))
      assert.strictEqual(outcome._tag, "NeedsReconnect")
      const listed = yield* request(`${base}/api/v1/accounts`, { headers: bearer(key.key) })
      assert.strictEqual(listed.body.data[0].status, "needs_reconnect")
      assert.include(listed.body.data[0].statusReason, "example")
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* Effect.orDie(sql<{ readonly statusReason: string }>`
        SELECT status_reason FROM accounts WHERE id = ${account.id}`)
      assert.include(row!.statusReason, "example")
      const [event] = yield* Effect.orDie(sql<{ readonly data: any }>`
        SELECT data FROM events WHERE event = 'account.needs_reconnect' AND data->>'accountId' = ${account.id}`)
      assert.deepInclude(event!.data, { accountId: account.id, platform: "example", username: "ivan" })
      assert.isString(event!.data.note)
      // Connecting it again brings it back, with the same id.
      yield* connect(base, key.key, "ivan")
      const relisted = yield* request(`${base}/api/v1/accounts`, { headers: bearer(key.key) })
      assert.deepInclude(relisted.body.data[0], { id: account.id, status: "connected", statusReason: null })
    }))
})

// The console starts a connection with `returnTo` and gets the person back on its own page, not the
// callback's: only a path under /app/ is accepted, so the callback can send no one to another site.
layer(serverLayer(), { excludeTestServices: true })("connecting from the console (returnTo)", (it) => {
  const start = (base: string, key: string, query: string) =>
    startConnection(base, key, Object.fromEntries(new URLSearchParams(query)))
  const consent = (url: string) =>
    Effect.promise(() => fetch(url, { redirect: "manual" })).pipe(
      Effect.map((answer) => answer.headers.get("location")!.replace("localhost", "127.0.0.1"))
    )
  const noFollow = (url: string) => Effect.promise(() => fetch(url, { redirect: "manual" }))

  it.effect("answers 303 back to the console path with the new account's id", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      const started = yield* start(base, key.key, "username=dora&returnTo=%2Fapp%2Faccounts")
      assert.strictEqual(started.status, 200, started.text)
      const back = yield* noFollow(yield* consent(started.body.data.url))
      assert.strictEqual(back.status, 303)
      const listed = yield* request(`${base}/api/v1/accounts`, { headers: bearer(key.key) })
      assert.deepInclude(listed.body.data[0], { username: "dora", status: "connected" })
      assert.strictEqual(back.headers.get("location"), `/app/accounts?connected=${listed.body.data[0].id}`)
    }))

  it.effect("answers 303 back with the error when the connection fails (a reused state, a refusal)", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      const started = yield* start(base, key.key, "username=emil&returnTo=%2Fapp%2Fsettings%2F")
      const callback = yield* consent(started.body.data.url)
      assert.strictEqual((yield* noFollow(callback)).status, 303)
      const reused = yield* noFollow(callback)
      assert.strictEqual(reused.status, 303)
      const location = new URL(reused.headers.get("location")!, base)
      assert.strictEqual(location.pathname, "/app/settings/")
      assert.include(location.searchParams.get("error"), "not valid")
      assert.isNull(location.searchParams.get("connected"))

      // The person declines on the network's consent page of a flow Herald started; not signed in to the
      // console, they are told OAuth's code in Herald's words.
      const declined = yield* start(base, key.key, "username=emil&returnTo=%2Fapp%2Fsettings%2F")
      const state = new URL(declined.body.data.url).searchParams.get("state")!
      const refused = yield* noFollow(`${base}/oauth/example/callback?error=access_denied&state=${state}`)
      assert.strictEqual(refused.status, 303)
      assert.strictEqual(
        refused.headers.get("location"),
        `/app/settings/?${new URLSearchParams({ error: "The network said access was refused on its consent page (access_denied)" })}`
      )
    }))

  it.effect("keeps the callback's page when the flow was started without returnTo", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      const started = yield* start(base, key.key, "username=finn")
      const answer = yield* noFollow(yield* consent(started.body.data.url))
      assert.strictEqual(answer.status, 200)
      assert.include(yield* Effect.promise(() => answer.text()), "@finn")
    }))

  it.effect("refuses a returnTo that is not a path under /app/ with 400 invalid", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      for (
        const returnTo of [
          "https://evil.example/app/",
          "//evil.example/app/",
          "/\\evil.example",
          "/api/v1/accounts",
          "/app",
          "/app//evil.example",
          "/app/../api/v1/keys",
          "/app/%2e%2e/api",
          "/app/accounts?x=1",
          "javascript:alert(1)"
        ]
      ) {
        const answer = yield* start(base, key.key, new URLSearchParams({ returnTo }).toString())
        assert.strictEqual(answer.status, 400, returnTo)
        assert.strictEqual(answer.body.error.code, "invalid")
        assert.include(answer.body.error.message, "returnTo")
      }
      // A forged state naming another site falls back to the page: nothing redirects off the console.
      const forged = `forged.${Buffer.from("//evil.example").toString("base64url")}`
      const answer = yield* noFollow(`${base}/oauth/example/callback?code=abc&state=${forged}`)
      assert.strictEqual(answer.status, 400)
      assert.isNull(answer.headers.get("location"))
    }))
})

describe("outside the sandbox", () => {
  // Only networks whose client id and secret are configured are offered; there are no simulators. The
  // environment is given to this server alone: the process's own is read once per worker, which runs other
  // files before this one.
  const environment = ConfigProvider.layerAdd(
    ConfigProvider.fromEnv({ env: { HERALD_EXAMPLE_CLIENT_ID: "real-client", HERALD_EXAMPLE_CLIENT_SECRET: "real-secret" } }),
    { asPrimary: true }
  )
  const realMode = serverLayer({ sandbox: Option.some(false) }, [examplePackage, { ...examplePackage, network: "unconfigured" }])
  layer(realMode.pipe(Layer.provide(environment)), { excludeTestServices: true })("real mode", (it) => {
    it.effect("offers configured networks only, pointed at the network's real addresses", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const { key } = yield* workspaceWithKey()
        const networks = yield* request(`${base}/api/v1/networks`, { headers: bearer(key.key) })
        assert.deepStrictEqual(networks.body.data.map((network: any) => network.key), ["example"])
        // Outside the sandbox there is no simulated account to pick: OAuth asks nothing first.
        assert.deepStrictEqual(networks.body.data[0].connect, { method: "oauth", fields: [] })
        const started = yield* startConnection(base, key.key)
        const url = new URL(started.body.data.url)
        assert.strictEqual(url.origin, "https://example.invalid")
        assert.strictEqual(url.searchParams.get("client_id"), "real-client")
        assert.strictEqual(url.searchParams.get("redirect_uri"), `${base.replace("127.0.0.1", "localhost")}/oauth/example/callback`)
        const sandbox = yield* request(`${base}/sandbox/example/oauth/authorize`)
        assert.strictEqual(sandbox.status, 404)
      }))
  })
})
