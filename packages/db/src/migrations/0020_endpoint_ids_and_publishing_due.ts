import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// Webhook endpoint ids carry the `whk_` prefix product.md gives them: an endpoint made as `wh_<rest>` becomes
// `whk_<rest>`, and so do its messages and deliveries (decision 0016). And a post sent now is saved
// `publishing` with its message sent after the commit: the engine's sweep looks for those as it looks for
// scheduled posts whose message was lost, by their time.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* renameEndpointIds
  yield* sql`CREATE INDEX posts_publishing_due ON posts (scheduled_at) WHERE status = 'publishing'`
})

/**
 * The rename, in place of `ON UPDATE CASCADE` (the foreign keys have none): each endpoint is copied under its
 * new id, its messages and deliveries are pointed at the copy, and the old row, by then referenced by nothing,
 * is deleted. Plain SQL, the same on PGlite and PostgreSQL; run again, it finds nothing to do.
 */
export const renameEndpointIds = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    INSERT INTO webhook_endpoints (id, workspace_id, url, events, description, enabled, secret, consecutive_failures,
      disabled_at, created_at, updated_at)
    SELECT 'whk_' || substr(id, 4), workspace_id, url, events, description, enabled, secret, consecutive_failures,
      disabled_at, created_at, updated_at
    FROM webhook_endpoints WHERE id LIKE 'wh\\_%'`
  yield* sql`UPDATE webhook_messages SET endpoint_id = 'whk_' || substr(endpoint_id, 4) WHERE endpoint_id LIKE 'wh\\_%'`
  yield* sql`UPDATE webhook_deliveries SET endpoint_id = 'whk_' || substr(endpoint_id, 4) WHERE endpoint_id LIKE 'wh\\_%'`
  // A test event's body names its endpoint; a redelivery sends the body again, so it names the new id.
  yield* sql`
    UPDATE webhook_messages SET body = replace(body, '"endpointId":"wh_', '"endpointId":"whk_')
    WHERE event = 'webhook.test' AND body LIKE '%"endpointId":"wh\\_%'`
  yield* sql`DELETE FROM webhook_endpoints WHERE id LIKE 'wh\\_%'`
})
