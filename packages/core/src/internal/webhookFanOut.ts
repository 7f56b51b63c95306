import { Clock, Effect } from "effect"
import type { SqlClient } from "effect/sql"
import * as Ids from "../Ids.ts"
import { planned } from "./planned.ts"

/**
 * The fan-out: takes up to 500 committed events not yet fanned out and makes one message per event and
 * matching endpoint of its workspace, the body fixed once; answers how many events it took. An endpoint
 * that is switched off gets its messages too, held until it is switched on (decision 0011).
 */
export const fanOut = (sql: SqlClient.SqlClient) =>
  sql.withTransaction(Effect.gen(function*() {
    // Marked rather than read past a cursor: transactions commit out of sequence order, and a cursor would
    // step over an event that commits late.
    const events = yield* planned<{
      readonly sequence: string | bigint
      readonly id: string
      readonly workspaceId: string
      readonly event: string
      readonly createdAt: Date
      readonly data: unknown
    }>(sql`
      UPDATE events SET dispatched = true
      WHERE sequence IN (
        SELECT sequence FROM events WHERE NOT dispatched ORDER BY sequence LIMIT 500 FOR UPDATE SKIP LOCKED
      )
      RETURNING sequence, id, workspace_id, event, created_at, data`)
    if (events.length === 0) return 0
    const workspaces = [...new Set(events.map((event) => event.workspaceId))]
    const endpoints = yield* sql<{
      readonly id: string
      readonly workspaceId: string
      readonly events: ReadonlyArray<string>
      readonly enabled: boolean
    }>`SELECT id, workspace_id, events, enabled FROM webhook_endpoints WHERE ${sql.in("workspace_id", workspaces)}`
    const now = new Date(yield* Clock.currentTimeMillis)
    const messages = []
    for (const event of events) {
      const body = JSON.stringify({ id: event.id, event: event.event, createdAt: event.createdAt.toISOString(), data: event.data })
      for (const endpoint of endpoints) {
        if (endpoint.workspaceId !== event.workspaceId) continue
        if (endpoint.events.length > 0 && !endpoint.events.includes(event.event)) continue
        messages.push({
          id: yield* Ids.make("msg"),
          endpoint_id: endpoint.id,
          event_id: event.id,
          event: event.event,
          body,
          sequence: String(event.sequence),
          state: endpoint.enabled ? "pending" : "held",
          next_attempt_at: endpoint.enabled ? now : null
        })
      }
    }
    if (messages.length > 0) {
      // One JSON parameter rather than a parameter per value (4,000 for 500 messages): the driver encodes one
      // string, and the statement's text is the same whatever the batch's size.
      yield* sql`
        INSERT INTO webhook_messages (id, endpoint_id, event_id, event, body, sequence, state, next_attempt_at)
        SELECT id, endpoint_id, event_id, event, body, sequence, state, next_attempt_at
        FROM jsonb_to_recordset(${JSON.stringify(messages)}::jsonb) AS m(
          id text, endpoint_id text, event_id uuid, event text, body text, sequence bigint, state text,
          next_attempt_at timestamptz)
        ON CONFLICT (endpoint_id, event_id) DO NOTHING`
    }
    return events.length
  }))
