import { Effect } from "effect"
import { SqlClient } from "effect/sql"

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
  // What endpoints switched off before this change left behind (their retries marked `stopped`, or left
  // pending by a switch-off in the settings) is kept like the rest, to go out when they are switched on.
  yield* sql`
    UPDATE webhook_messages m SET state = 'held', next_attempt_at = NULL,
      sequence = (SELECT v.sequence FROM events v WHERE v.id = m.event_id)
    FROM webhook_endpoints e
    WHERE e.id = m.endpoint_id AND NOT e.enabled AND m.state IN ('stopped', 'pending') AND NOT m.once
  `
})
