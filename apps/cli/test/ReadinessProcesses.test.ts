import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import * as Processes from "./processes.ts"
import { skipIf } from "../../../testing/skipIf.ts"

// /ready across processes on one PostgreSQL: each `all` process is ready once its runner holds some of the
// shards, which the two share; an `api` process runs no entities, so shards do not apply to it. Runs when
// HERALD_TEST_DATABASE_URL names a server.
const herald = Processes.make("ready")

const readyOf = async (started: Processes.Started) => {
  const answer = await fetch(started.ready.health.replace(/\/health$/, "/ready"))
  return { status: answer.status, body: await answer.json() as any }
}

/** `/ready` of `started` once it answers 200, or its last answer when the wait's budget is spent. */
const untilReady = (started: Processes.Started) => Processes.poll(() => readyOf(started), (answer) => answer.status === 200)

describe("/ready of several processes on PostgreSQL", skipIf(Processes.missing), () => {
  let one: Processes.Started
  let two: Processes.Started
  let api: Processes.Started

  // The first process migrates the new database; the others start beside each other. The worker of the
  // second test calls the sandbox where this api process serves it.
  beforeAll(async () => {
    await herald.create()
    one = await herald.start("one", { PORT: "0" })
    const [runner, client] = await Promise.all([
      herald.start("two", { PORT: "0" }),
      herald.start("api", { PORT: "0", HERALD_ROLE: "api" })
    ])
    two = runner
    api = client
  })

  afterAll(() => herald.dispose())

  it("two runners sharing the shards are each ready with shards ok; an api process with shards not_applicable", async () => {
    await herald.shardsShared(2)
    for (const started of [one, two]) {
      assert.deepStrictEqual(await untilReady(started), {
        status: 200,
        body: { status: "ready", checks: { database: "ok", migrations: "ok", shards: "ok" } }
      })
    }
    assert.deepStrictEqual(await untilReady(api), {
      status: 200,
      body: { status: "ready", checks: { database: "ok", migrations: "ok", shards: "not_applicable" } }
    })
  })

  it("a worker, given no PORT, serves its probes on a free port: /health, /ready with its shards, /metrics with the token, nothing of the API", async () => {
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
