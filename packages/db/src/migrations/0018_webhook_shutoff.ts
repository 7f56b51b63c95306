import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { randomBytes } from "node:crypto"

// A switched-off endpoint keeps its events (decision 0011): its messages wait in state `held` and are sent
// again, in the order of their events, when it is switched on.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // The event's place in the outbox: kept messages are sent again in this order.
  yield* sql`ALTER TABLE webhook_messages ADD COLUMN sequence bigint`
  // Attempts made before the endpoint was last switched on: a kept message starts its retry schedule again.
  yield* sql`ALTER TABLE webhook_messages ADD COLUMN attempts_before integer NOT NULL DEFAULT 0`
  yield* sql`DROP INDEX webhook_messages_due`
  yield* sql`CREATE INDEX webhook_messages_due ON webhook_messages (endpoint_id, next_attempt_at, sequence) WHERE state = 'pending'`
  yield* keepLeftBehind
})

/**
 * What endpoints switched off before this change lost is kept like the rest, to go out when they are
 * switched on: their retries (marked `stopped`, or left pending by a switch-off in the settings), and the
 * events of the last 30 days that happened while they were off, which the fan-out skipped.
 */
export const keepLeftBehind = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    UPDATE webhook_messages m SET state = 'held', next_attempt_at = NULL,
      sequence = (SELECT v.sequence FROM events v WHERE v.id = m.event_id)
    FROM webhook_endpoints e
    WHERE e.id = m.endpoint_id AND NOT e.enabled AND m.state IN ('stopped', 'pending') AND NOT m.once`
  const endpoints = yield* sql<{ readonly id: string; readonly workspaceId: string; readonly events: ReadonlyArray<string>; readonly disabledAt: Date }>`
    SELECT id, workspace_id, events, disabled_at FROM webhook_endpoints WHERE NOT enabled AND disabled_at IS NOT NULL`
  for (const endpoint of endpoints) {
    let after = "0"
    while (true) {
      // A page at a time, the events as the fan-out would have made them (the same body).
      const events = yield* sql<{ readonly sequence: string; readonly id: string; readonly event: string; readonly createdAt: Date; readonly data: unknown }>`
        SELECT v.sequence, v.id, v.event, v.created_at, v.data FROM events v
        WHERE v.workspace_id = ${endpoint.workspaceId} AND v.dispatched AND v.sequence > ${after}
          AND v.created_at >= ${endpoint.disabledAt} AND v.created_at >= now() - interval '30 days'
        ORDER BY v.sequence LIMIT 1000`
      if (events.length === 0) break
      after = events.at(-1)!.sequence
      const messages = events
        .filter((event) => endpoint.events.length === 0 || endpoint.events.includes(event.event))
        .map((event) => ({
          id: `msg_${randomBytes(16).toString("base64url").slice(0, 22)}`,
          endpoint_id: endpoint.id,
          event_id: event.id,
          event: event.event,
          body: JSON.stringify({ id: event.id, event: event.event, createdAt: event.createdAt.toISOString(), data: event.data }),
          sequence: event.sequence,
          state: "held",
          // Kept for the 30 days from the event, as the history is.
          created_at: event.createdAt
        }))
      if (messages.length === 0) continue
      yield* sql`
        INSERT INTO webhook_messages ${sql.insert(messages as [typeof messages[number], ...typeof messages])}
        ON CONFLICT (endpoint_id, event_id) DO NOTHING`
    }
  }
})
