import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { ClientAddress, People } from "@herald/core"
import { baseUrl, request, serverLayer, workspaceWithKey } from "./harness.ts"
import { roomInMinute, roomInSignInWindow } from "./limitWindows.ts"

// The client address sign-in attempts and requests without a valid key are counted against, over real
// HTTP. The test server is reached from 127.0.0.1, so "behind a proxy" is 127.0.0.1 trusted and the
// clients named by X-Forwarded-For, as a reverse proxy in front of Herald would send it.

let count = 0
const tagged = () => `c${++count}${Date.now().toString(36)}`

const client = Effect.gen(function*() {
  const base = yield* baseUrl
  const origin = new URL(base.replace("127.0.0.1", "localhost")).origin
  const send = (method: string, path: string, options: { readonly body?: unknown; readonly headers?: Record<string, string> } = {}) =>
    request(`${base}/api/v1${path}`, {
      method,
      headers: { origin, ...(options.body === undefined ? {} : { "content-type": "application/json" }), ...options.headers },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
    })
  /** A sign-in with a wrong password, as sent by the client `forwardedFor` names. */
  const wrongSignIn = (email: string, forwardedFor: string) =>
    Effect.map(
      send("POST", "/auth/sign-in", { body: { email, password: "not the password" }, headers: { "x-forwarded-for": forwardedFor } }),
      (answer) => answer.status
    )
  /** A request with a key that is not one, as sent by the client `forwardedFor` names. */
  const badKey = (forwardedFor: string) =>
    Effect.map(
      send("GET", "/accounts", { headers: { authorization: "Bearer not-a-key", "x-forwarded-for": forwardedFor } }),
      (answer) => answer.status
    )
  /** Uses up the e-mail's attempts from one client: every one is answered, the next is refused. */
  const exhaust = (email: string, forwardedFor: ReadonlyArray<string>) =>
    Effect.gen(function*() {
      for (let index = 0; index < People.failuresPerEmail; index++) {
        assert.strictEqual(yield* wrongSignIn(email, forwardedFor[index % forwardedFor.length]!), 401)
      }
    })
  return { send, wrongSignIn, badKey, exhaust }
})

/** A server trusting `proxies`, with a rate limit low enough to reach in a test. */
const trusting = (proxies: string) => serverLayer({ trustedProxies: ClientAddress.parseTrustedProxies(proxies)!, rateLimitPerMinute: 3 })

layer(trusting("127.0.0.1, 10.0.0.0/8"), { excludeTestServices: true })("behind a trusted proxy", (it) => {
  it.effect("two clients with different X-Forwarded-For have separate sign-in limits", () =>
    Effect.gen(function*() {
      const { exhaust, wrongSignIn } = yield* client
      const email = `someone@${tagged()}.test`
      yield* roomInSignInWindow
      yield* exhaust(email, ["203.0.113.10"])
      assert.strictEqual(yield* wrongSignIn(email, "203.0.113.10"), 429, "the first client is over its limit")
      assert.strictEqual(yield* wrongSignIn(email, "203.0.113.11"), 401, "the second client was held to the first one's limit")
      // The proxy's own hops (trusted) are skipped; an address a client wrote before them is not reached.
      assert.strictEqual(yield* wrongSignIn(email, "203.0.113.11, 203.0.113.10, 10.1.1.1"), 429)
    }))

  it.effect("two IPv6 addresses in one /64 share their limits; another /64 has its own", () =>
    Effect.gen(function*() {
      const { exhaust, wrongSignIn } = yield* client
      const email = `rotating@${tagged()}.test`
      yield* roomInSignInWindow
      yield* exhaust(email, ["2001:db8:a:b::1", "2001:db8:a:b::2", "2001:db8:a:b:1:2:3:4"])
      assert.strictEqual(yield* wrongSignIn(email, "2001:db8:a:b:ffff:ffff:ffff:ffff"), 429, "a new address in the same /64 escaped the limit")
      assert.strictEqual(yield* wrongSignIn(email, "2001:db8:a:c::1"), 401)
    }))

  it.effect("requests without a valid key are counted per forwarded client", () =>
    Effect.gen(function*() {
      const { badKey } = yield* client
      yield* roomInMinute
      for (let index = 0; index < 3; index++) assert.strictEqual(yield* badKey("198.51.100.20"), 401)
      assert.strictEqual(yield* badKey("198.51.100.20"), 429)
      assert.strictEqual(yield* badKey("198.51.100.21"), 401, "another client shared the first one's budget")
    }))

  it.effect("the OAuth endpoints are counted per forwarded client", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const revoke = (forwardedFor: string) =>
        Effect.map(
          request(`${base}/revoke`, {
            method: "POST",
            headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": forwardedFor },
            body: "token=not-a-token"
          }),
          (answer) => answer.status
        )
      yield* roomInMinute
      for (let index = 0; index < 3; index++) assert.strictEqual(yield* revoke("198.51.100.60"), 200)
      assert.strictEqual(yield* revoke("198.51.100.60"), 429)
      assert.strictEqual(yield* revoke("198.51.100.61"), 200)
    }))

  it.effect("the sessions list shows the forwarded client's whole address", () =>
    Effect.gen(function*() {
      const { send } = yield* client
      const email = `owner@${tagged()}.test`
      yield* workspaceWithKey("Proxied", email)
      const people = yield* People.People
      const person = yield* Effect.orDie(people.ensure(email))
      yield* Effect.orDie(people.setPassword(person.id, "correct horse battery"))
      const signedIn = yield* send("POST", "/auth/sign-in", {
        body: { email, password: "correct horse battery" },
        headers: { "x-forwarded-for": "2001:db8:a:d::1234" }
      })
      assert.strictEqual(signedIn.status, 200, signedIn.text)
      const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!
      const listed = yield* send("GET", "/auth/sessions", { headers: { cookie } })
      assert.strictEqual(listed.status, 200, listed.text)
      assert.deepStrictEqual(listed.body.data.map((session: any) => session.address), ["2001:db8:a:d::1234"])
    }))
})

layer(trusting("10.0.0.0/8"), { excludeTestServices: true })("from a peer that is not a trusted proxy", (it) => {
  it.effect("a forged X-Forwarded-For does not escape the sign-in limit", () =>
    Effect.gen(function*() {
      const { exhaust, wrongSignIn } = yield* client
      const email = `someone@${tagged()}.test`
      yield* roomInSignInWindow
      yield* exhaust(email, ["203.0.113.30", "203.0.113.31", "2001:db8::1"])
      assert.strictEqual(yield* wrongSignIn(email, "203.0.113.32"), 429)
      assert.strictEqual(yield* wrongSignIn(email, "10.0.0.1"), 429)
    }))

  it.effect("a forged X-Forwarded-For does not escape the limit of requests without a valid key", () =>
    Effect.gen(function*() {
      const { badKey } = yield* client
      yield* roomInMinute
      for (let index = 0; index < 3; index++) assert.strictEqual(yield* badKey(`198.51.100.${40 + index}`), 401)
      assert.strictEqual(yield* badKey("198.51.100.50"), 429)
    }))
})
