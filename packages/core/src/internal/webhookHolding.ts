import { Duration, Effect, Option, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { dieOnBadRow } from "./rows.ts"

/**
 * A switched-off endpoint keeps its events (decision 0011). Its messages wait in state `held`, never
 * claimed; switching it on makes them due at once, in the order of their events, each with its retry
 * schedule from the start. Kept messages go with the history after 30 days.
 */

/** How long events are kept: the delivery history's 30 days. */
export const keepFor = Duration.days(30)

/** Whether the endpoint is on, its row locked; built once, on the client it is given. */
const endpointLocked = SqlSchema.findOneOption({
  Request: Schema.String,
  Result: Schema.Struct({ enabled: Schema.Boolean }),
  execute: (endpointId) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql`
      SELECT enabled FROM webhook_endpoints WHERE id = ${endpointId} FOR NO KEY UPDATE`)
})

/**
 * Keeps the endpoint's waiting messages (new ones and retries) instead of sending them, if it is still
 * switched off (it is locked first: a switch-on in between has released them already). A message whose
 * attempt is under way stays held until that attempt is recorded: delivered if it succeeds, held if not.
 * With `failedSinceLastSuccess` (the automatic switch-off), the messages whose retries ran out during the
 * failures that switched it off are kept too: they are what the outage did not deliver.
 */
export const hold = (sql: SqlClient.SqlClient, endpointId: string, options: { readonly failedSinceLastSuccess: boolean }) =>
  Effect.gen(function*() {
    const endpoint = yield* dieOnBadRow(Effect.provideService(endpointLocked(endpointId), SqlClient.SqlClient, sql))
    if (Option.isNone(endpoint) || endpoint.value.enabled) return
    yield* sql`
      UPDATE webhook_messages SET state = 'held', next_attempt_at = NULL
      WHERE endpoint_id = ${endpointId} AND state = 'pending' AND NOT once`
    // No retry is due while it is off: the history shows none.
    yield* sql`UPDATE webhook_deliveries SET next_retry_at = NULL WHERE endpoint_id = ${endpointId} AND next_retry_at IS NOT NULL`
    if (!options.failedSinceLastSuccess) return
    yield* sql`
      UPDATE webhook_messages SET state = 'held'
      WHERE endpoint_id = ${endpointId} AND state = 'failed' AND NOT once AND id IN (
        SELECT d.message_id FROM webhook_deliveries d
        WHERE d.endpoint_id = ${endpointId} AND d.created_at > coalesce((
          SELECT max(s.created_at) FROM webhook_deliveries s
          WHERE s.endpoint_id = ${endpointId} AND s.status_code BETWEEN 200 AND 299
        ), '-infinity'::timestamptz)
      )`
  })

/**
 * Sends the kept messages again: all due at `now`, so the claim (oldest due first, then by event) takes
 * them in the order of their events. A message left pending by a switch-off that raced its recording is
 * put in line with them; one whose attempt is under way (leased into the future) is left to end. Messages
 * older than the history are left for the expiry round to drop.
 */
export const release = (sql: SqlClient.SqlClient, endpointId: string, now: number) =>
  sql`
    UPDATE webhook_messages SET state = 'pending', next_attempt_at = ${new Date(now)}, attempts_before = attempts
    WHERE endpoint_id = ${endpointId} AND created_at >= ${new Date(now - Duration.toMillis(keepFor))}
      AND (state = 'held' OR (state = 'pending' AND next_attempt_at <= ${new Date(now)}))`
