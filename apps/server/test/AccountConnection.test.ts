import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiKeys, People, Team } from "@herald/core"
import * as Packages from "../src/Packages.ts"
import { acceptAs, baseUrl, bearer, countingListener, examplePackage, request, serverLayer, workspaceWithKey } from "./harness.ts"

// Starting an account connection (issue 28, decision 0060): a change, so a CSRF-checked POST by a role that may
// change the workspace. The GET of old is for bearer keys only (a cross-site page cannot send one); a cookie
// GET, which any page can make a browser send, is refused before Herald registers itself on a server named
// in it. The callback repeats a network's error text only for a flow Herald started.

const mastodon = Packages.all.filter((entry) => entry.network === "mastodon")
const password = "correct horse battery"
let count = 0

/** A workspace with its owner, an editor and a viewer, each with a key and a console session. */
const team = Effect.gen(function*() {
  const base = yield* baseUrl
  const origin = new URL(base.replace("127.0.0.1", "localhost")).origin
  const tag = `c${++count}${Date.now().toString(36)}`
  const { key, workspace } = yield* workspaceWithKey(`WS ${tag}`, `owner@${tag}.test`)
  const member = (role: "owner" | "editor" | "viewer") =>
    Effect.gen(function*() {
      const email = `${role}@${tag}.test`
      const memberId = role === "owner"
        ? (yield* (yield* Team.Team).members(workspace.id))[0]!.id
        : (yield* acceptAs(yield* (yield* Team.Team).invite(workspace.id, { email, role }))).member.id
      const person = yield* (yield* People.People).ensure(email)
      yield* (yield* People.People).setPassword(person.id, password)
      const memberKey = yield* (yield* ApiKeys.ApiKeys).create({ workspaceId: workspace.id, memberId })
      const signedIn = yield* request(`${base}/api/v1/auth/sign-in`, {
        method: "POST",
        headers: { origin, "content-type": "application/json" },
        body: JSON.stringify({ email, password })
      })
      assert.strictEqual(signedIn.status, 200, signedIn.text)
      const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!
      const session = { origin, cookie, "x-csrf-token": signedIn.body.data.csrfToken as string }
      return { key: memberKey.key, session }
    }).pipe(Effect.orDie)
  /** `/api/v1` with these headers (one given as "" is left out), and a JSON body when there is one. */
  const send = (method: string, path: string, headers: Record<string, string>, body?: unknown) =>
    request(`${base}/api/v1${path}`, {
      method,
      headers: Object.fromEntries(
        Object.entries({ ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers })
          .filter(([, value]) => value !== "")
      ),
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  return {
    base,
    workspace,
    key: key.key,
    owner: yield* member("owner"),
    editor: yield* member("editor"),
    viewer: yield* member("viewer"),
    send
  }
})

const noFollow = (url: string, headers: Record<string, string> = {}) =>
  Effect.promise(() => fetch(url, { redirect: "manual", headers }))

layer(serverLayer({}, [examplePackage, ...mastodon]), { excludeTestServices: true })("starting an account connection", (it) => {
  it.effect("owners, editors and workspace keys start one by POST; viewers' keys and sessions are refused 403", () =>
    Effect.gen(function*() {
      const { editor, key, owner, send, viewer } = yield* team
      const body = { username: "poster", returnTo: "/app/accounts" }
      for (const [who, headers] of [["workspace key", bearer(key)], ["owner's key", bearer(owner.key)], ["editor's key", bearer(editor.key)], ["owner's session", owner.session], ["editor's session", editor.session]] as const) {
        const started = yield* send("POST", "/accounts/connect/example", headers, body)
        assert.strictEqual(started.status, 200, `${who}: ${started.text}`)
        assert.deepStrictEqual(Object.keys(started.body.data).sort(), ["expiresAt", "url"])
        assert.strictEqual(new URL(started.body.data.url).searchParams.get("sandbox_username"), "poster")
      }
      for (const [who, headers] of [["key", bearer(viewer.key)], ["session", viewer.session]] as const) {
        const refused = yield* send("POST", "/accounts/connect/example", headers, body)
        assert.strictEqual(refused.status, 403, `${who}: ${refused.text}`)
        assert.strictEqual(refused.body.error.code, "forbidden")
        assert.include(refused.body.error.message, "viewer")
      }
      // The older GET is refused to a viewer's key too.
      const byGet = yield* send("GET", "/accounts/connect/example?username=poster", bearer(viewer.key))
      assert.strictEqual(byGet.status, 403, byGet.text)
      assert.strictEqual(byGet.body.error.code, "forbidden")
      assert.include(byGet.body.error.message, "viewer")
    }))

  it.effect("the body is checked as the query was: returnTo, the network, unknown and overlong fields", () =>
    Effect.gen(function*() {
      const { key, send } = yield* team
      const start = (platform: string, body: unknown) => send("POST", `/accounts/connect/${platform}`, bearer(key), body)
      const elsewhere = yield* start("example", { returnTo: "//evil.example/app/" })
      assert.strictEqual(elsewhere.status, 400, elsewhere.text)
      assert.include(elsewhere.body.error.message, "returnTo")
      const unknown = yield* start("myspace", {})
      assert.strictEqual(unknown.status, 404, unknown.text)
      assert.include(unknown.body.error.message, "example")
      const typo = yield* start("example", { usename: "x" })
      assert.strictEqual(typo.status, 400, typo.text)
      assert.include(JSON.stringify(typo.body.error), "usename")
      const long = yield* start("example", { username: "u".repeat(101) })
      assert.strictEqual(long.status, 400, long.text)
      assert.include(JSON.stringify(long.body.error), "username")
      const noServer = yield* start("mastodon", { username: "x" })
      assert.strictEqual(noServer.status, 400, noServer.text)
      assert.include(noServer.body.error.message, "server")
      const longServer = yield* start("mastodon", { server: `${"a".repeat(250)}.example` })
      assert.strictEqual(longServer.status, 400, longServer.text)
      assert.include(JSON.stringify(longServer.body.error), "server")
    }))

  it.effect("a cookie request without X-CSRF-Token, from another origin, or by GET is refused and registers nothing on the server it names", () =>
    Effect.scoped(Effect.gen(function*() {
      const { owner, send } = yield* team
      const sql = yield* SqlClient.SqlClient
      // Where an attacker's page would aim Herald's registration request (private addresses are allowed in
      // these tests, so only the CSRF rule stands between the page and this listener).
      const listening = yield* countingListener
      const server = `http://127.0.0.1:${listening.port}`
      const registered = () =>
        Effect.map(Effect.orDie(sql<{ readonly count: number }>`
          SELECT count(*)::int AS count FROM network_apps WHERE server = ${server}`), (rows) => rows[0]!.count)
      const attempts = [
        // What a link or a redirect on any site makes the browser send: the cookie (SameSite=Lax), no token.
        ["a cookie GET", "GET", { cookie: owner.session.cookie }],
        ["a cookie GET with the token", "GET", owner.session],
        ["no X-CSRF-Token", "POST", { ...owner.session, "x-csrf-token": "" }],
        ["a forged X-CSRF-Token", "POST", { ...owner.session, "x-csrf-token": "forged" }],
        ["another site's Origin", "POST", { ...owner.session, origin: "https://evil.example" }],
        ["no Origin", "POST", { ...owner.session, origin: "" }]
      ] as const
      for (const [what, method, headers] of attempts) {
        const answer = method === "GET"
          ? yield* send("GET", `/accounts/connect/mastodon?${new URLSearchParams({ server, username: "csrf" })}`, headers)
          : yield* send("POST", "/accounts/connect/mastodon", headers, { server, username: "csrf" })
        assert.strictEqual(answer.status, 403, `${what}: ${answer.text}`)
        assert.strictEqual(answer.body.error.code, "forbidden", what)
        if (method === "GET") assert.include(answer.body.error.message, "POST /api/v1/accounts/connect/mastodon", what)
      }
      assert.strictEqual(listening.connections(), 0)
      assert.strictEqual(yield* registered(), 0)
      // The same request with the session's token does reach the server (which hangs up), so the count above
      // would have seen an unchecked one.
      const checked = yield* send("POST", "/accounts/connect/mastodon", owner.session, { server, username: "csrf" })
      assert.notStrictEqual(checked.status, 403, checked.text)
      assert.isAbove(listening.connections(), 0)
    })))

  it.effect("a bearer GET still starts a connection, as the older form the OpenAPI document marks deprecated", () =>
    Effect.gen(function*() {
      const { base, editor, key, send } = yield* team
      for (const headers of [bearer(key), bearer(editor.key)]) {
        const started = yield* send("GET", `/accounts/connect/example?${new URLSearchParams({ username: "older", returnTo: "/app/accounts" })}`, headers)
        assert.strictEqual(started.status, 200, started.text)
        assert.strictEqual(new URL(started.body.data.url).searchParams.get("sandbox_username"), "older")
      }
      const document = (yield* request(`${base}/api/v1/openapi.json`)).body
      const path = document.paths["/api/v1/accounts/connect/{platform}"]
      assert.isTrue(path.get.deprecated)
      assert.isUndefined(path.post.deprecated)
      assert.include(path.get.description, "POST")
    }))
})

layer(serverLayer(), { excludeTestServices: true })("the callback's error text", (it) => {
  const generic = "The connection could not be completed; start it again"
  const attackerText = "Your account is locked: call +1 555 0100 or sign in at https://evil.example"
  const forgedState = (returnTo: string) => `forged.${Buffer.from(returnTo).toString("base64url")}`
  const errorOf = (answer: Response) => new URL(answer.headers.get("location")!, "http://herald").searchParams.get("error")

  it.effect("a forged or missing state gets a generic message, never the text sent with it", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const callback = (query: Record<string, string>) => noFollow(`${base}/oauth/example/callback?${new URLSearchParams(query)}`)
      const back = yield* callback({ error: "access_denied", error_description: attackerText, state: forgedState("/app/accounts") })
      assert.strictEqual(back.status, 303)
      assert.strictEqual(errorOf(back), generic)
      const page = yield* callback({ error: "access_denied", error_description: attackerText })
      assert.strictEqual(page.status, 400)
      const text = yield* Effect.promise(() => page.text())
      assert.notInclude(text, "evil.example")
      assert.include(text, generic)
      const codeOnly = yield* callback({ error: attackerText, state: forgedState("/app/accounts") })
      assert.strictEqual(errorOf(codeOnly), generic)
    }))

  it.effect("a state Herald issued gets the network's words, at most 200 characters of them, once", () =>
    Effect.gen(function*() {
      const { base, key, owner, send } = yield* team
      const started = yield* send("POST", "/accounts/connect/example", bearer(key), { username: "denied", returnTo: "/app/accounts" })
      const state = new URL(started.body.data.url).searchParams.get("state")!
      const callback = () =>
        noFollow(`${base}/oauth/example/callback?${new URLSearchParams({ error: "access_denied", error_description: `The person said no. ${"x".repeat(5_000)}`, state })}`, {
          cookie: owner.session.cookie
        })
      const refused = yield* callback()
      assert.strictEqual(refused.status, 303)
      const error = errorOf(refused)!
      assert.match(error, /^The network said: The person said no\. x+…$/)
      assert.isAtMost(error.length, "The network said: ".length + 200)
      // The flow is over: the same state again is not Herald's any more.
      assert.strictEqual(errorOf(yield* callback()), generic)
    }))

  it.effect("without a session, a live state gets OAuth's error code in Herald's words, never the description", () =>
    Effect.gen(function*() {
      // An attacker's own flow, linked to a stranger who is not signed in: the state is live, the words are theirs.
      const attacker = yield* team
      const start = () => attacker.send("POST", "/accounts/connect/example", bearer(attacker.key), { returnTo: "/app/accounts" })
      const stateOf = (started: { readonly body: any }) => new URL(started.body.data.url).searchParams.get("state")!
      const linked = (query: Record<string, string>) => noFollow(`${attacker.base}/oauth/example/callback?${new URLSearchParams(query)}`)
      const denied = yield* linked({ error: "access_denied", error_description: attackerText, state: stateOf(yield* start()) })
      assert.strictEqual(denied.status, 303)
      assert.strictEqual(errorOf(denied), "The network said access was refused on its consent page (access_denied)")
      const madeUp = yield* linked({ error: attackerText, state: stateOf(yield* start()) })
      assert.strictEqual(errorOf(madeUp), generic)
    }))

  it.effect("a state another workspace started gets the generic message in a session of this one", () =>
    Effect.gen(function*() {
      const attacker = yield* team
      const victim = yield* team
      const started = yield* attacker.send("POST", "/accounts/connect/example", bearer(attacker.key), { returnTo: "/app/accounts" })
      const state = new URL(started.body.data.url).searchParams.get("state")!
      const link = `${victim.base}/oauth/example/callback?${new URLSearchParams({ error: "access_denied", error_description: attackerText, state })}`
      const back = yield* noFollow(link, { cookie: victim.owner.session.cookie })
      assert.strictEqual(back.status, 303)
      assert.strictEqual(errorOf(back), generic)
    }))
})
