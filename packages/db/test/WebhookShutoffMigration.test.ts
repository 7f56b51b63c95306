import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { randomUUID } from "node:crypto"
import { keepLeftBehind } from "../src/migrations/0018_webhook_shutoff.ts"
import { backends } from "../src/testing.ts"

// Migration 0018 on a database that endpoints switched off before it left behind: their stopped retries
// and the events that happened while they were off are kept, to go out when they are switched on.

const day = 86_400_000

for (const backend of backends()) layer(backend.layer)(`migration 0018 on ${backend.name}`, (it) => {
  it.effect("keeps a switched-off endpoint's stopped retries and the events it missed; leaves the rest", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const now = Date.now()
      yield* sql`INSERT INTO workspaces (id, name) VALUES ('ws_mig', 'Migrated')`
      yield* sql`INSERT INTO webhook_endpoints (id, workspace_id, url, events, enabled, secret, disabled_at) VALUES
        ('wh_off', 'ws_mig', 'https://a.example/hook', '["post.created","post.deleted"]'::jsonb, false, '\\x00'::bytea, ${new Date(now - 2 * day)}),
        ('wh_on', 'ws_mig', 'https://b.example/hook', '[]'::jsonb, true, '\\x00'::bytea, NULL)`
      const event = (name: string, agoMs: number) => ({
        id: randomUUID(),
        workspace_id: "ws_mig",
        event: name,
        data: JSON.stringify({ postId: "pst_1" }),
        created_at: new Date(now - agoMs),
        dispatched: true
      })
      const before = event("post.created", 3 * day) // before the switch-off: delivered or stopped then
      const stopped = event("post.created", 2.5 * day)
      const missed = event("post.deleted", day) // while off: never queued
      const unselected = event("post.updated", day) // while off, but not in its selection
      const rows = [before, stopped, missed, unselected]
      yield* sql`INSERT INTO events ${sql.insert(rows as [typeof rows[number], ...typeof rows])}`
      yield* sql`INSERT INTO webhook_messages (id, endpoint_id, event_id, event, body, state, attempts) VALUES
        ('msg_done', 'wh_off', ${before.id}, 'post.created', '{}', 'succeeded', 1),
        ('msg_stopped', 'wh_off', ${stopped.id}, 'post.created', '{}', 'stopped', 2),
        ('msg_other', 'wh_on', ${stopped.id}, 'post.created', '{}', 'stopped', 2)`

      yield* keepLeftBehind
      // Run twice (a migration retried), nothing doubles.
      yield* keepLeftBehind

      const messages = yield* sql<{ readonly id: string; readonly endpointId: string; readonly eventId: string; readonly state: string; readonly body: string }>`
        SELECT id, endpoint_id, event_id, state, body FROM webhook_messages`
      const order: Array<string> = rows.map((row) => row.id)
      const of = (endpointId: string) =>
        messages.filter((message) => message.endpointId === endpointId)
          .sort((a, b) => order.indexOf(a.eventId) - order.indexOf(b.eventId))
      assert.deepStrictEqual(of("wh_off").map((message) => [message.eventId, message.state]), [
        [before.id, "succeeded"],
        [stopped.id, "held"],
        [missed.id, "held"]
      ])
      assert.deepStrictEqual(of("wh_on").map((message) => message.state), ["stopped"], "an endpoint that is on keeps what it had")
      const body = JSON.parse(of("wh_off")[2]!.body)
      assert.deepStrictEqual(body, { id: missed.id, event: "post.deleted", createdAt: missed.created_at.toISOString(), data: { postId: "pst_1" } })
    }))
})
