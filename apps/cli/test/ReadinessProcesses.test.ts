import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import * as Processes from "./processes.ts"

// /ready across processes on one PostgreSQL: each `all` process is ready once its runner holds some of the
// shards, which the two share; an `api` process runs no entities, so shards do not apply to it. Runs when
// HERALD_TEST_DATABASE_URL names a server.
const herald = Processes.make("ready")

const readyOf = async (started: Processes.Started) => {
  const answer = await fetch(started.ready.health.replace(/\/health$/, "/ready"))
  return { status: answer.status, body: await answer.json() as any }
}

/** `/ready` of `started` once it answers 200, or its last answer after 30 s. */
const untilReady = async (started: Processes.Started) => {
  const until = Date.now() + 30_000
  let answer = await readyOf(started)
  while (answer.status !== 200 && Date.now() < until) {
    await new Promise((wait) => setTimeout(wait, 250))
    answer = await readyOf(started)
  }
  return answer
}

describe.skipIf(!Processes.available)("/ready of several processes on PostgreSQL", () => {
  beforeAll(() => herald.create(), 60_000)

  afterAll(() => herald.dispose(), 60_000)

  it("two runners sharing the shards are each ready with shards ok; an api process with shards not_applicable", async () => {
    const one = await herald.start("one", { PORT: "0" })
    const two = await herald.start("two", { PORT: "0" })
    await herald.shardsShared(2)
    for (const started of [one, two]) {
      assert.deepStrictEqual(await untilReady(started), {
        status: 200,
        body: { status: "ready", checks: { database: "ok", migrations: "ok", shards: "ok" } }
      })
    }
    const api = await herald.start("api", { PORT: "0", HERALD_ROLE: "api" })
    assert.deepStrictEqual(await untilReady(api), {
      status: 200,
      body: { status: "ready", checks: { database: "ok", migrations: "ok", shards: "not_applicable" } }
    })
  })

  it("a worker, given no PORT, serves its probes on a free port: /health, /ready with its shards, /metrics with the token, nothing of the API", async () => {
    const api = await herald.start("api2", { PORT: "0", HERALD_ROLE: "api" })
    const token = "worker-metrics-token-0123456789"
    const worker = await herald.start("worker", { HERALD_ROLE: "worker", BASE_URL: api.ready.listening, HERALD_METRICS_TOKEN: token })
    const base = worker.ready.listening
    assert.notStrictEqual(new URL(base).port, "3000")
    assert.strictEqual(worker.ready.health, `${base}/health`)
    const health = await fetch(`${base}/health`)
    assert.deepStrictEqual([health.status, await health.json()], [200, { status: "ok", database: "ok" }])
    assert.deepStrictEqual(await untilReady(worker), {
      status: 200,
      body: { status: "ready", checks: { database: "ok", migrations: "ok", shards: "ok" } }
    })
    const metrics = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } })
    assert.strictEqual(metrics.status, 200)
    assert.include(await metrics.text(), "herald_db_pool_connections")
    const hidden = await fetch(`${base}/metrics`)
    assert.strictEqual(hidden.status, 404)
    const api404 = await fetch(`${base}/api/v1/accounts`)
    assert.strictEqual(api404.status, 404)
    assert.strictEqual((await api404.json() as any).error.code, "not_found")
  })
})
