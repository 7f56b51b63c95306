import { assert, layer } from "@effect/vitest"
import { Effect, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { backends } from "@herald/db/testing"
import { apiWithKey, baseUrl, examplePackage, request, serverLayer, workspaceWithKey } from "./harness.ts"
import { parse, samples, valueOf } from "./prometheus.ts"

// `GET /metrics` (decision 0049): only the operator's HERALD_METRICS_TOKEN opens it; anything else gets
// the 404 of a path Herald does not have, so the route's existence is not revealed. The gauges of state
// (posts due within the hour, the database connections) are read when scraped.

const token = "metrics-token-for-tests-0123456789"

/** Status, body and header names of an answer, with the path it names replaced, to compare two 404s. */
const shapeOf = (answer: { readonly status: number; readonly headers: Headers; readonly text: string }, path: string) => ({
  status: answer.status,
  body: answer.text.replaceAll(path, "<path>"),
  headers: [...answer.headers.keys()].filter((name) => name !== "date" && name !== "x-request-id").sort()
    .map((name) => [name, name === "content-length" ? "" : answer.headers.get(name)])
})

const get = (path: string, headers: Record<string, string> = {}) =>
  Effect.flatMap(baseUrl, (base) => request(`${base}${path}`, { headers }))

const expectHidden = (headers: Record<string, string>) =>
  Effect.gen(function*() {
    const unknown = yield* get("/no-such-path", headers)
    const metrics = yield* get("/metrics", headers)
    assert.strictEqual(metrics.status, 404)
    assert.deepStrictEqual(shapeOf(metrics, "/metrics"), shapeOf(unknown, "/no-such-path"))
  })

layer(serverLayer(), { excludeTestServices: true })("GET /metrics without the setting", (it) => {
  it.effect("is the 404 of an unknown path, whatever the request carries", () =>
    Effect.gen(function*() {
      const { key } = yield* workspaceWithKey("No metrics")
      yield* expectHidden({})
      yield* expectHidden({ authorization: `Bearer ${token}` })
      yield* expectHidden({ authorization: `Bearer ${key.key}` })
      // Operational, not part of the API: the OpenAPI document does not name it.
      const openapi = yield* get("/api/v1/openapi.json")
      assert.strictEqual(openapi.status, 200)
      assert.isFalse(Object.keys(openapi.body.paths).some((path) => path.includes("metrics")))
    }))
})

/** A post for `accountId`, `minutes` from now; answers the API's status. */
const scheduleIn = (send: Effect.Success<ReturnType<typeof apiWithKey>>, accountId: string, minutes: number) =>
  Effect.map(
    send("POST", "/posts", { content: `In ${minutes} minutes`, accountIds: [accountId], scheduledAt: new Date(Date.now() + minutes * 60_000).toISOString() }),
    (answer) => answer.status
  )

let workspaces = 0

for (const backend of backends()) {
  // Two requests a minute per key: the key used on /metrics below would be refused if those counted.
  layer(serverLayer({ metricsToken: Option.some(Redacted.make(token)), rateLimitPerMinute: 2 }, [examplePackage], backend), { excludeTestServices: true })(`GET /metrics with HERALD_METRICS_TOKEN on ${backend.name}`, (it) => {
    it.effect("answers the token alone: a missing or wrong bearer and an API key get the unknown path's 404, uncounted", () =>
      Effect.gen(function*() {
        const { key } = yield* workspaceWithKey(`Metrics ${++workspaces}`)
        yield* expectHidden({})
        yield* expectHidden({ authorization: `Bearer ${token}x` })
        yield* expectHidden({ authorization: `Bearer ${token.slice(0, -1)}` })
        yield* expectHidden({ authorization: token })
        yield* expectHidden({ authorization: `Bearer ${key.key}` })
        yield* expectHidden({ authorization: `Bearer ${key.key}` })
        // The key's three requests to /metrics did not count against its limit of two a minute.
        const send = yield* apiWithKey(key.key)
        assert.strictEqual((yield* send("GET", "/accounts")).status, 200)

        const answer = yield* get("/metrics", { authorization: `Bearer ${token}` })
        assert.strictEqual(answer.status, 200, answer.text)
        assert.strictEqual(answer.headers.get("content-type"), "text/plain; version=0.0.4; charset=utf-8")
        assert.include(answer.text, "# TYPE herald_posts_due_next_hour gauge")
        assert.include(answer.text, "# TYPE herald_db_pool_connections gauge")
        assert.isAbove(parse(answer.text).length, 0)
      }))

    it.effect("counts the scheduled posts due within the hour, every workspace's, when scraped", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const sends = []
        for (const name of ["Due A", "Due B"]) {
          const { key, workspace } = yield* workspaceWithKey(`${name} ${++workspaces}`)
          const accountId = `acc_due${workspace.id.slice(4, 24)}`
          yield* Effect.orDie(sql`INSERT INTO accounts (id, workspace_id, platform, username) VALUES (${accountId}, ${workspace.id}, 'example', 'due')`)
          sends.push({ send: yield* apiWithKey(key.key), accountId })
        }
        const before = valueOf(yield* samples(token), "herald_posts_due_next_hour")
        assert.isDefined(before)
        // Two within the hour (one per workspace), one the hour after: only the first two count.
        assert.strictEqual(yield* scheduleIn(sends[0]!.send, sends[0]!.accountId, 20), 200)
        assert.strictEqual(yield* scheduleIn(sends[1]!.send, sends[1]!.accountId, 50), 200)
        assert.strictEqual(yield* scheduleIn(sends[1]!.send, sends[1]!.accountId, 90), 200)
        const after = valueOf(yield* samples(token), "herald_posts_due_next_hour")
        assert.strictEqual(after! - before!, 2)
      }))

    it.effect("leaves the database's gauges out of a scrape the database does not answer, and serves the rest", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        assert.isDefined(valueOf(yield* samples(token), "herald_posts_due_next_hour"))
        yield* Effect.orDie(sql`ALTER TABLE posts RENAME TO posts_away`)
        const without = yield* samples(token).pipe(Effect.ensuring(Effect.orDie(sql`ALTER TABLE posts_away RENAME TO posts`)))
        assert.isUndefined(valueOf(without, "herald_posts_due_next_hour"))
        assert.isUndefined(valueOf(without, "herald_db_pool_connections"))
        assert.isDefined(valueOf(without, "herald_http_requests_total"))
        assert.isDefined(valueOf(yield* samples(token), "herald_posts_due_next_hour"))
      }))

    it.effect("reports the database connections as the backend really has them", () =>
      Effect.gen(function*() {
        const found = yield* samples(token)
        const pool = (state: string) => valueOf(found, "herald_db_pool_connections", { state })
        if (backend.name === "pglite") {
          // One PGlite session, taken in turns: nothing to call in use or idle.
          assert.strictEqual(pool("max"), 1)
          assert.isUndefined(pool("in_use"))
          assert.isUndefined(pool("idle"))
        } else {
          assert.strictEqual(pool("max"), 10)
          // The scrape's own query was running on one of them.
          assert.isAtLeast(pool("in_use")!, 1)
          assert.isAtLeast(pool("idle")!, 0)
          assert.isAtMost(pool("in_use")! + pool("idle")!, 10)
        }
      }))
  })
}
