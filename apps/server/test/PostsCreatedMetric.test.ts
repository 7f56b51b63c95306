import { assert, layer } from "@effect/vitest"
import { Effect, Metric } from "effect"
import { SqlClient } from "effect/sql"
import { Metrics } from "@herald/core"
import { backends } from "@herald/db/testing"
import { apiWithKey, examplePackage, serverLayer, workspaceWithKey } from "./harness.ts"

// `herald_posts_created_total{timing}`: one per post whose row committed, by how it was asked to go out.

const createdCount = (timing: string) =>
  Effect.map(Metric.value(Metric.withAttributes(Metrics.postsCreated, { timing })), (state) => state.count)

const allCounts = Effect.all({
  scheduled: createdCount("scheduled"),
  publish_now: createdCount("publish_now"),
  queued: createdCount("queued"),
  draft: createdCount("draft")
})

let counter = 0
const setup = Effect.gen(function*() {
  const { key, workspace } = yield* workspaceWithKey("Counted", `owner@pcm${++counter}.test`)
  const sql = yield* SqlClient.SqlClient
  const accountId = `acc_pcm${workspace.id.slice(4, 24)}`
  yield* sql`INSERT INTO accounts (id, workspace_id, platform, username) VALUES (${accountId}, ${workspace.id}, 'example', 'c')`
  const send = yield* apiWithKey(key.key)
  const create = (body: object) =>
    Effect.map(send("POST", "/posts", { content: "Counted", accountIds: [accountId], ...body }), (answer) => answer.status)
  return { create, send }
}).pipe(Effect.orDie)

const everyDay = {
  slots: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].flatMap((day) => ["09:00", "15:00"].map((time) => ({ day, time })))
}

for (const backend of backends()) {
  layer(serverLayer({}, [examplePackage], backend), { excludeTestServices: true })(
    `posts created metric on ${backend.name}`,
    (it) => {
      it.effect("counts each created post once under its timing: scheduled, publish_now, queued, draft", () =>
        Effect.gen(function*() {
          const { create, send } = yield* setup
          assert.strictEqual((yield* send("PUT", "/queue/schedule", everyDay)).status, 200)
          const before = yield* allCounts
          const inAnHour = new Date(Date.now() + 3_600_000).toISOString()
          assert.strictEqual(yield* create({ scheduledAt: inAnHour }), 200)
          assert.strictEqual(yield* create({ scheduledAt: inAnHour }), 200)
          assert.strictEqual(yield* create({ publishNow: true }), 200)
          assert.strictEqual(yield* create({ queued: true }), 200)
          assert.strictEqual(yield* create({ draft: true }), 200)
          const after = yield* allCounts
          assert.deepStrictEqual(
            {
              scheduled: after.scheduled - before.scheduled,
              publish_now: after.publish_now - before.publish_now,
              queued: after.queued - before.queued,
              draft: after.draft - before.draft
            },
            { scheduled: 2, publish_now: 1, queued: 1, draft: 1 }
          )
        }))

      it.effect("a create refused as invalid is not counted", () =>
        Effect.gen(function*() {
          const { create } = yield* setup
          const before = yield* allCounts
          // Two timings at once, and text past the example network's 100 characters.
          assert.strictEqual(yield* create({ draft: true, publishNow: true }), 400)
          assert.strictEqual(yield* create({ content: "x".repeat(101), scheduledAt: new Date(Date.now() + 60_000).toISOString() }), 400)
          assert.deepStrictEqual(yield* allCounts, before)
        }))
    }
  )
}
