import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { randomUUID } from "node:crypto"

/**
 * The outbox. Call inside the transaction of the change the event reports: the event row commits with
 * the change or not at all. The webhook sender reads committed rows in `sequence` order.
 */
export const record = Effect.fnUntraced(function*(
  sql: SqlClient.SqlClient,
  workspaceId: string,
  event: string,
  data: Record<string, unknown>
) {
  const id = randomUUID()
  yield* sql`
    INSERT INTO events (id, workspace_id, event, data) VALUES (${id}, ${workspaceId}, ${event}, ${JSON.stringify(data)}::jsonb)
  `
  return id
})

/** An event row to insert as part of a larger statement (same columns as `record`). */
export const row = (workspaceId: string, event: string, data: Record<string, unknown>) => ({
  id: randomUUID(),
  workspaceId,
  event,
  data: JSON.stringify(data)
})
