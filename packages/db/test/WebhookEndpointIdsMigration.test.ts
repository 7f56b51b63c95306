import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { randomUUID } from "node:crypto"
import { renameEndpointIds } from "../src/migrations/0020_endpoint_ids_and_publishing_due.ts"
import { backends } from "../src/testing.ts"

// Migration 0020 on a database with endpoints made before the `whk_` prefix: each keeps its settings, secret,
// messages and deliveries under its new id.

for (const backend of backends()) layer(backend.layer)(`migration 0020 on ${backend.name}`, (it) => {
  it.effect("renames wh_ endpoints to whk_ with their messages and deliveries; leaves whk_ ones as they are", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const disabledAt = new Date("2026-11-01T10:00:00.000Z")
      yield* sql`INSERT INTO workspaces (id, name) VALUES ('ws_mig', 'Migrated')`
      yield* sql`INSERT INTO webhook_endpoints (id, workspace_id, url, events, description, enabled, secret, consecutive_failures, disabled_at) VALUES
        ('wh_old1', 'ws_mig', 'https://a.example/hook', '["post.created"]'::jsonb, 'first', false, '\\x0102'::bytea, 50, ${disabledAt}),
        ('wh_old2', 'ws_mig', 'https://b.example/hook', '[]'::jsonb, NULL, true, '\\x03'::bytea, 0, NULL),
        ('whk_new', 'ws_mig', 'https://c.example/hook', '[]'::jsonb, NULL, true, '\\x04'::bytea, 0, NULL)`
      const eventId = randomUUID()
      const testEventId = randomUUID()
      const testBody = JSON.stringify({ id: testEventId, event: "webhook.test", data: { endpointId: "wh_old2", message: "A test event" } })
      yield* sql`INSERT INTO webhook_messages (id, endpoint_id, event_id, event, body, state, attempts) VALUES
        ('msg_1', 'wh_old1', ${eventId}, 'post.created', '{"data":{}}', 'held', 2),
        ('msg_2', 'wh_old2', ${eventId}, 'post.created', '{"data":{}}', 'succeeded', 1),
        ('msg_3', 'wh_old2', ${testEventId}, 'webhook.test', ${testBody}, 'succeeded', 1),
        ('msg_4', 'whk_new', ${eventId}, 'post.created', '{"data":{}}', 'succeeded', 1)`
      yield* sql`INSERT INTO webhook_deliveries (id, message_id, endpoint_id, attempt, status_code) VALUES
        ('dlv_1', 'msg_1', 'wh_old1', 1, 500),
        ('dlv_2', 'msg_1', 'wh_old1', 2, 500),
        ('dlv_3', 'msg_2', 'wh_old2', 1, 200),
        ('dlv_4', 'msg_3', 'wh_old2', 1, 200),
        ('dlv_5', 'msg_4', 'whk_new', 1, 200)`

      yield* renameEndpointIds
      // Run twice (a migration retried), nothing changes.
      yield* renameEndpointIds

      const endpoints = yield* sql<{
        readonly id: string
        readonly url: string
        readonly description: string | null
        readonly enabled: boolean
        readonly secret: Uint8Array
        readonly consecutiveFailures: number
        readonly disabledAt: Date | null
      }>`SELECT id, url, description, enabled, secret, consecutive_failures, disabled_at FROM webhook_endpoints ORDER BY id`
      assert.deepStrictEqual(endpoints.map((endpoint) => endpoint.id), ["whk_new", "whk_old1", "whk_old2"])
      const old1 = endpoints.find((endpoint) => endpoint.id === "whk_old1")!
      assert.deepStrictEqual(
        [old1.url, old1.description, old1.enabled, [...old1.secret], old1.consecutiveFailures, old1.disabledAt?.toISOString()],
        ["https://a.example/hook", "first", false, [1, 2], 50, disabledAt.toISOString()]
      )
      const messages = yield* sql<{ readonly id: string; readonly endpointId: string; readonly state: string; readonly body: string }>`
        SELECT id, endpoint_id, state, body FROM webhook_messages ORDER BY id`
      assert.deepStrictEqual(messages.map((message) => [message.id, message.endpointId, message.state]), [
        ["msg_1", "whk_old1", "held"],
        ["msg_2", "whk_old2", "succeeded"],
        ["msg_3", "whk_old2", "succeeded"],
        ["msg_4", "whk_new", "succeeded"]
      ])
      assert.strictEqual(JSON.parse(messages[2]!.body).data.endpointId, "whk_old2", "a test event's body names the new id")
      const deliveries = yield* sql<{ readonly id: string; readonly endpointId: string; readonly messageId: string }>`
        SELECT id, endpoint_id, message_id FROM webhook_deliveries ORDER BY id`
      assert.deepStrictEqual(deliveries.map((delivery) => [delivery.id, delivery.endpointId, delivery.messageId]), [
        ["dlv_1", "whk_old1", "msg_1"],
        ["dlv_2", "whk_old1", "msg_1"],
        ["dlv_3", "whk_old2", "msg_2"],
        ["dlv_4", "whk_old2", "msg_3"],
        ["dlv_5", "whk_new", "msg_4"]
      ])
      // Deleting a renamed endpoint still takes its history with it: the foreign keys point at the new row.
      yield* sql`DELETE FROM webhook_endpoints WHERE id = 'whk_old1'`
      const left = yield* sql<{ readonly count: number | string }>`SELECT count(*) AS count FROM webhook_deliveries WHERE endpoint_id = 'whk_old1'`
      assert.strictEqual(Number(left[0]!.count), 0)
    }))
})
