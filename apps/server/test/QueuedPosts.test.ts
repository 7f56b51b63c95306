import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { backends } from "@herald/db/testing"
import { apiWithKey, examplePackage, serverLayer, workspaceWithKey } from "./harness.ts"

// Queued posts over REST (docs/queue.md): `queued: true` takes the earliest free slot of every account.

let counter = 0
const setup = Effect.gen(function*() {
  const { key, workspace } = yield* workspaceWithKey("Queued", `owner@qp${++counter}.test`)
  const sql = yield* SqlClient.SqlClient
  const accountId = `acc_qp${workspace.id.slice(4, 24)}`
  yield* sql`INSERT INTO accounts (id, workspace_id, platform, username) VALUES (${accountId}, ${workspace.id}, 'example', 'q')`
  return { workspace, accountId, send: yield* apiWithKey(key.key) }
}).pipe(Effect.orDie)

// Every hour of the week: 168 slots.
const hourly = { slots: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].flatMap((day) =>
  Array.from({ length: 24 }, (_, hour) => ({ day, time: `${String(hour).padStart(2, "0")}:00` }))) }

for (const backend of backends()) layer(serverLayer({}, [examplePackage], backend), { timeout: 120_000, excludeTestServices: true })(
  `queued posts on ${backend.name}`,
  (it) => {
    it.effect("50 concurrent queued creates at one account get 50 distinct slots", () =>
      Effect.gen(function*() {
        const { send, accountId } = yield* setup
        assert.strictEqual((yield* send("PUT", "/queue/schedule", hourly)).status, 200)
        const answers = yield* Effect.forEach(
          Array.from({ length: 50 }, (_, index) => index),
          (index) => send("POST", "/posts", { content: `queued ${index}`, accountIds: [accountId], queued: true }),
          { concurrency: "unbounded" }
        )
        for (const answer of answers) {
          assert.strictEqual(answer.status, 200, answer.text)
          assert.strictEqual(answer.body.data.queued, true)
          assert.strictEqual(answer.body.data.status, "scheduled")
        }
        const times = answers.map((answer) => answer.body.data.scheduledAt as string)
        assert.strictEqual(new Set(times).size, 50)
      }))
  }
)
