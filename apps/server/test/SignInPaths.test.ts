import { assert, describe, layer } from "@effect/vitest"
import { Effect, Layer, Logger, Option, Redacted, References } from "effect"
import { SqlClient } from "effect/sql"
import { Connect } from "@herald/adapter-kit"
import { TokenRefresh } from "@herald/core"
import { baseUrl, bearer, examplePackage, request, serverLayer, workspaceWithKey } from "./harness.ts"
import { settled, setup } from "./publishing.ts"
import { clientsSeen, fediPackage, keyedPackage, password, published, refreshes, registrations } from "./signInNetworks.ts"

// The two sign-in paths beside OAuth, end to end over real HTTP, with the small test networks of
// signInNetworks.ts: `keyed` signs in with a handle and an app password, `fedi` has a server per account.

/** Every log line of the server, at every level: a secret must appear in none. */
const logged: Array<string> = []
const capture = Logger.make((options) => void logged.push(Logger.formatLogFmt.log(options)))

const signIn = (base: string, key: string, body: unknown) =>
  request(`${base}/api/v1/accounts/connect`, {
    method: "POST",
    headers: { ...bearer(key), "content-type": "application/json" },
    body: JSON.stringify(body)
  })

/** Starts a consent flow: `POST /api/v1/accounts/connect/:platform`. */
const start = (base: string, key: string, platform: string, body: Record<string, string> = {}) =>
  request(`${base}/api/v1/accounts/connect/${platform}`, {
    method: "POST",
    headers: { ...bearer(key), "content-type": "application/json" },
    body: JSON.stringify(body)
  })

/** Connects a `fedi` account on `server` through the consent page and the callback, as a browser would. */
const connectFedi = (base: string, key: string, server: string, username: string) =>
  Effect.gen(function*() {
    const started = yield* start(base, key, "fedi", { server, username })
    assert.strictEqual(started.status, 200, started.text)
    const consent = yield* Effect.promise(() => fetch(started.body.data.url, { redirect: "manual" }))
    assert.strictEqual(consent.status, 302)
    const callback = yield* request(consent.headers.get("location")!.replace("localhost", "127.0.0.1"))
    assert.strictEqual(callback.status, 200, callback.text)
    return callback
  })

const server = serverLayer({}, [examplePackage, keyedPackage, fediPackage]).pipe(
  Layer.provide(Logger.layer([capture])),
  Layer.provide(Layer.succeed(References.MinimumLogLevel, "All"))
)

layer(server, { excludeTestServices: true })("sign-in paths", (it) => {
  it.effect("GET /networks describes each network's connect method and its fields", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      const networks = yield* request(`${base}/api/v1/networks`, { headers: bearer(key.key) })
      const connectOf = (network: string) => networks.body.data.find((entry: any) => entry.key === network).connect
      assert.strictEqual(connectOf("keyed").method, "credentials")
      assert.deepStrictEqual(connectOf("keyed").fields.map((field: any) => [field.name, field.required, field.secret]), [
        ["identifier", true, false],
        ["password", true, true]
      ])
      // OAuth on the person's server (the sandbox adds its simulated account's name after it).
      assert.strictEqual(connectOf("fedi").method, "oauth")
      assert.deepStrictEqual(connectOf("fedi").fields[0], { ...Connect.serverField })
    }))

  it.effect("a credentials network connects over the API: 201 with the account, announced, secret kept nowhere", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key, workspace } = yield* workspaceWithKey()
      const answer = yield* signIn(base, key.key, { platform: "keyed", fields: { identifier: "alice.test", password } })
      assert.strictEqual(answer.status, 201, answer.text)
      assert.deepInclude(answer.body.data, { platform: "keyed", username: "alice.test", status: "connected" })
      assert.notInclude(answer.text, password)
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ readonly server: string | null; readonly signIn: string; readonly stored: string }>`
        SELECT server, sign_in, accounts::text AS stored FROM accounts WHERE id = ${answer.body.data.id}`
      assert.strictEqual(row!.server, "https://pds.keyed.test")
      assert.strictEqual(row!.signIn, "credentials")
      assert.notInclude(row!.stored, password)
      assert.notInclude(row!.stored, "token-of-alice.test", "the access token is sealed")
      const events = yield* sql<{ readonly event: string; readonly payload: string }>`
        SELECT event, data::text AS payload FROM events WHERE workspace_id = ${workspace.id}`
      const connected = events.find((event) => event.event === "account.connected")
      assert.isDefined(connected)
      assert.include(connected!.payload, answer.body.data.id)
      // Signing in again is the same account, kept under its id.
      const again = yield* signIn(base, key.key, { platform: "keyed", fields: { identifier: "alice.test", password } })
      assert.strictEqual(again.body.data.id, answer.body.data.id)
      assert.isFalse(logged.some((line) => line.includes(password)), "the app password was logged")
    }))

  it.effect("tokens of a credentials account are renewed by the network's credentials refresh, with its server", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      const answer = yield* signIn(base, key.key, { platform: "keyed", fields: { identifier: "renew.test", password } })
      assert.strictEqual(answer.status, 201, answer.text)
      const renewal = yield* TokenRefresh.TokenRefresh
      const outcome = yield* Effect.orDie(renewal.refresh(answer.body.data.id))
      assert.strictEqual(outcome._tag, "Refreshed")
      assert.deepStrictEqual(refreshes.at(-1), { refreshToken: "refresh-of-renew.test", server: "https://pds.keyed.test" })
    }))

  it.effect("a sandbox account of a credentials network signs in by itself and publishes with its server", () =>
    Effect.gen(function*() {
      // The sandbox connect (herald account connect --sandbox, the Demo workspace) signs in with the fields
      // the adapter says its simulator accepts.
      const { accounts, create, get } = yield* setup(["keyed"])
      const post = yield* create({ content: "Signed in, sent out", accountIds: [accounts["keyed"]], publishNow: true })
      const done = yield* settled(get, post.id)
      assert.strictEqual(done.status, "published", JSON.stringify(done))
      assert.deepStrictEqual(published.at(-1)?.server, "https://pds.keyed.test")
    }))

  it.effect("wrong credentials are 400 invalid in the network's words; unknown and missing fields are named", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      const wrong = yield* signIn(base, key.key, { platform: "keyed", fields: { identifier: "bob.test", password: "nope-secret-9" } })
      assert.strictEqual(wrong.status, 400, wrong.text)
      assert.strictEqual(wrong.body.error.code, "invalid")
      assert.include(wrong.body.error.message, "Wrong handle or app password")
      assert.notInclude(wrong.text, "nope-secret-9")
      const missing = yield* signIn(base, key.key, { platform: "keyed", fields: { identifier: "bob.test" } })
      assert.strictEqual(missing.status, 400)
      assert.include(missing.body.error.message, `"password"`)
      assert.strictEqual(missing.body.error.details[0].field, "password")
      const unknown = yield* signIn(base, key.key, { platform: "keyed", fields: { identifier: "b", password, pin: "1" } })
      assert.strictEqual(unknown.status, 400)
      assert.strictEqual(unknown.body.error.details[0].field, "pin")
      // An OAuth network is not signed in to with fields, and a credentials one has no consent page.
      const oauth = yield* signIn(base, key.key, { platform: "example", fields: {} })
      assert.strictEqual(oauth.status, 400)
      assert.include(oauth.body.error.message, "POST /api/v1/accounts/connect/example")
      const consent = yield* start(base, key.key, "keyed")
      assert.strictEqual(consent.status, 400)
      assert.include(consent.body.error.message, "POST /api/v1/accounts/connect")
      const none = yield* signIn(base, key.key, { platform: "nowhere", fields: {} })
      assert.strictEqual(none.status, 404)
      const listed = yield* request(`${base}/api/v1/accounts`, { headers: bearer(key.key) })
      assert.deepStrictEqual(listed.body.data, [])
      assert.isFalse(logged.some((line) => line.includes("nope-secret-9")), "the wrong password was logged")
    }))

  it.effect("a network of many servers registers Herald once per server and reuses it for the next account there", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      const before = registrations.length
      yield* connectFedi(base, key.key, "One.Example/", "carol")
      yield* connectFedi(base, key.key, "https://one.example", "dave")
      assert.deepStrictEqual(registrations.slice(before), ["https://one.example"])
      // Both accounts' consent pages and code exchanges were given the one app registered there.
      assert.deepStrictEqual(clientsSeen.slice(-4), Array(4).fill(`app-${before + 1}`))
      yield* connectFedi(base, key.key, "two.example", "erin")
      assert.deepStrictEqual(registrations.slice(before), ["https://one.example", "https://two.example"])
      assert.deepStrictEqual(clientsSeen.slice(-2), Array(2).fill(`app-${before + 2}`))
      const sql = yield* SqlClient.SqlClient
      const accounts = yield* sql<{ readonly username: string; readonly server: string }>`
        SELECT username, server FROM accounts WHERE platform = 'fedi' ORDER BY username`
      assert.deepStrictEqual(accounts.map((row) => [row.username, row.server]), [
        ["carol", "https://one.example"],
        ["dave", "https://one.example"],
        ["erin", "https://two.example"]
      ])
      const apps = yield* sql<{ readonly server: string; readonly stored: string }>`
        SELECT server, network_apps::text AS stored FROM network_apps WHERE network = 'fedi' ORDER BY server`
      assert.deepStrictEqual(apps.map((app) => app.server), ["https://one.example", "https://two.example"])
      assert.isFalse(apps.some((app) => app.stored.includes("app-secret")), "the app's secret is sealed")
      // Renewing an account's tokens hands the adapter Herald's app on that account's server.
      const [erin] = yield* sql<{ readonly id: string }>`SELECT id FROM accounts WHERE platform = 'fedi' AND username = 'erin'`
      const renewal = yield* TokenRefresh.TokenRefresh
      const outcome = yield* Effect.orDie(renewal.refresh(erin!.id))
      assert.strictEqual(outcome._tag, "Refreshed")
      assert.strictEqual(clientsSeen.at(-1), `app-${before + 2}`)
    }))

  it.effect("a sandbox account of a network of many servers connects on its simulator's own address", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const before = registrations.length
      const { accounts } = yield* setup(["fedi"])
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ readonly server: string }>`SELECT server FROM accounts WHERE id = ${accounts["fedi"]}`
      const sandbox = `${base.replace("127.0.0.1", "localhost")}/sandbox/fedi`
      assert.strictEqual(row!.server, sandbox)
      assert.deepStrictEqual(registrations.slice(before), [sandbox])
    }))

  it.effect("a network of many servers needs a server address; a single-host network takes none", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey()
      const missing = yield* start(base, key.key, "fedi")
      assert.strictEqual(missing.status, 400)
      assert.strictEqual(missing.body.error.details[0].field, "server")
      const bad = yield* start(base, key.key, "fedi", { server: "ftp://x.example" })
      assert.strictEqual(bad.status, 400)
      assert.include(bad.body.error.message, "not a server address")
      const single = yield* start(base, key.key, "example", { server: "one.example" })
      assert.strictEqual(single.status, 400)
      assert.strictEqual(single.body.error.details[0].field, "server")
    }))
})

describe("offered outside the sandbox", () => {
  // No client id or secret is set for any of them: the example network (the default rule) is not offered,
  // the two that need none say so themselves.
  layer(serverLayer({ sandbox: Option.some(false) }, [examplePackage, keyedPackage, fediPackage]), { excludeTestServices: true })("real mode", (it) => {
    it.effect("each package's offered decides GET /networks", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const { key } = yield* workspaceWithKey()
        const networks = yield* request(`${base}/api/v1/networks`, { headers: bearer(key.key) })
        assert.deepStrictEqual(networks.body.data.map((network: any) => network.key).sort(), ["fedi", "keyed"])
      }))
  })
})
