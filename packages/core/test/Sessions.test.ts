import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { SqlClient } from "effect/sql"
import { backends } from "@herald/db/testing"
import { People, PublicUrl, Sessions, Workspaces } from "../src/index.ts"
import * as Passwords from "../src/internal/passwords.ts"

// Console sessions in storage (decision 0021): scrypt hashes, sliding expiry capped at 60 days, revocation
// seen at once, and one-time links that work once within their lifetime.

describe("passwords", () => {
  it.effect("are stored as scrypt$N$r$p$salt$hash with N=2^15, r=8, p=1 and a 16-byte salt, checked in constant time", () =>
    Effect.gen(function*() {
      const stored = yield* Passwords.hash("correct horse battery")
      const [scheme, N, r, p, salt, hash] = stored.split("$")
      assert.deepStrictEqual([scheme, N, r, p], ["scrypt", "32768", "8", "1"])
      assert.strictEqual(Buffer.from(salt!, "base64").length, 16)
      assert.strictEqual(Buffer.from(hash!, "base64").length, 32)
      assert.isTrue(yield* Passwords.verify("correct horse battery", stored))
      assert.isFalse(yield* Passwords.verify("correct horse batterz", stored))
      assert.notStrictEqual(yield* Passwords.hash("correct horse battery"), stored)
      assert.isFalse(yield* Passwords.verify("anything", Passwords.dummy))
    }))
})

const services = (backend: ReturnType<typeof backends>[number]) =>
  Layer.mergeAll(Sessions.Sessions.layer, Workspaces.Workspaces.layer).pipe(
    Layer.provideMerge(People.People.layer),
    Layer.provideMerge(Layer.succeed(PublicUrl.PublicUrl, "https://herald.example")),
    Layer.provideMerge(backend.layer)
  )

let count = 0
const person = Effect.gen(function*() {
  const tag = `c${++count}${Date.now().toString(36)}`
  const workspace = yield* Effect.orDie(Effect.flatMap(Workspaces.Workspaces, (workspaces) =>
    workspaces.create({ name: tag, ownerEmail: `owner@${tag}.test` })))
  const people = yield* People.People
  const found = yield* Effect.orDie(people.ensure(`Owner@${tag}.test`))
  return { workspace, person: found }
})

const start = (personId: string, workspaceId: string) =>
  Effect.orDie(Effect.flatMap(Sessions.Sessions, (sessions) =>
    sessions.start({ personId, workspaceId, via: "password", mustSetPassword: false, client: { userAgent: "test", address: null } })))

for (const backend of backends()) {
  layer(services(backend))(`sessions on ${backend.name}`, (it) => {
    it.effect("a session lives 14 days from its last use, touched at most every 5 minutes, and 60 days at most", () =>
      Effect.gen(function*() {
        const { person: owner, workspace } = yield* person
        const sessions = yield* Sessions.Sessions
        const { token } = yield* start(owner.id, workspace.id)
        const day = 86_400_000
        assert.strictEqual((yield* Effect.orDie(sessions.authenticate(token))).maxAgeSeconds, 14 * 86_400)
        // Used every 13 days, it lives on, but not past 60 days from sign-in.
        for (let days = 13; days < 60; days += 13) {
          yield* TestClock.adjust(13 * day)
          const principal = yield* Effect.orDie(sessions.authenticate(token))
          assert.strictEqual(principal.maxAgeSeconds, Math.min(14, 60 - days) * 86_400)
        }
        yield* TestClock.adjust(9 * day)
        assert.strictEqual((yield* Effect.flip(sessions.authenticate(token)))._tag, "SessionRefused")
      }))

    it.effect("an unused session ends after 14 days; a revoked one at once; a use within 5 minutes writes nothing", () =>
      Effect.gen(function*() {
        const { person: owner, workspace } = yield* person
        const sessions = yield* Sessions.Sessions
        const sql = yield* SqlClient.SqlClient
        const idle = yield* start(owner.id, workspace.id)
        const before = yield* Effect.orDie(sql<{ readonly lastUsedAt: Date }>`SELECT last_used_at FROM sessions WHERE id = ${idle.principal.sessionId}`)
        yield* TestClock.adjust(4 * 60_000)
        yield* Effect.orDie(sessions.authenticate(idle.token))
        const after = yield* Effect.orDie(sql<{ readonly lastUsedAt: Date }>`SELECT last_used_at FROM sessions WHERE id = ${idle.principal.sessionId}`)
        assert.strictEqual(after[0]!.lastUsedAt.getTime(), before[0]!.lastUsedAt.getTime())
        yield* TestClock.adjust(14 * 86_400_000)
        assert.strictEqual((yield* Effect.flip(sessions.authenticate(idle.token)))._tag, "SessionRefused")

        const revoked = yield* start(owner.id, workspace.id)
        yield* Effect.orDie(sessions.revoke(revoked.principal.sessionId))
        assert.strictEqual((yield* Effect.flip(sessions.authenticate(revoked.token)))._tag, "SessionRefused")
        assert.strictEqual((yield* Effect.flip(sessions.authenticate("not a token")))._tag, "SessionRefused")
      }))

    it.effect("a link works once within its lifetime: 24 hours to sign in, 7 days on the first run, 1 hour to reset", () =>
      Effect.gen(function*() {
        const { person: owner, workspace } = yield* person
        const sessions = yield* Sessions.Sessions
        const tokenOf = (url: string) => url.split("#").at(-1)!
        const hours = (purpose: Sessions.LinkPurpose) =>
          Effect.map(Effect.orDie(sessions.issueLink(owner.id, workspace.id, purpose)), (link) => {
            assert.match(link.url, /^https:\/\/herald\.example\/app\/link#[A-Za-z0-9_-]{43}$/)
            return link
          })
        const signIn = yield* hours("sign_in")
        const firstRun = yield* hours("first_run")
        const reset = yield* hours("reset")
        const once = yield* Effect.orDie(sessions.consumeLink(tokenOf(signIn.url)))
        assert.deepStrictEqual(once, { personId: owner.id, workspaceId: workspace.id, purpose: "sign_in", passwordDropped: false })
        assert.strictEqual((yield* Effect.flip(sessions.consumeLink(tokenOf(signIn.url))))._tag, "LinkRefused")
        yield* TestClock.adjust(61 * 60_000)
        assert.strictEqual((yield* Effect.flip(sessions.consumeLink(tokenOf(reset.url))))._tag, "LinkRefused")
        yield* TestClock.adjust(6 * 86_400_000)
        assert.strictEqual((yield* Effect.orDie(sessions.consumeLink(tokenOf(firstRun.url)))).purpose, "first_run")
      }))
  })
}
