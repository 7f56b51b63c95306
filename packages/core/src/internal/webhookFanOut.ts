import { Clock, Effect, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import * as Ids from "../Ids.ts"
import { planned } from "./planned.ts"
import { dieOnBadRow, Timestamp } from "./rows.ts"

// The fan-out's statements, built once (it runs many times a second) on the client the round gives it, each
// with the schema its rows are decoded by (decision 0087).

/**
 * Events taken and marked rather than read past a cursor: transactions commit out of sequence order, and a
 * cursor would step over an event that commits late.
 */
const eventsTaken = SqlSchema.findAll({
  Request: Schema.Void,
  Result: Schema.Struct({
    // A bigint: its text from PostgreSQL's driver, a BigInt from the embedded database.
    sequence: Schema.Union([Schema.String, Schema.BigInt, Schema.Number]),
    id: Schema.String,
    workspaceId: Schema.String,
    event: Schema.String,
    createdAt: Timestamp,
    /** jsonb: the event's data, put in the body as it is. */
    data: Schema.Unknown
  }),
  execute: () =>
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      planned(sql`
      UPDATE events SET dispatched = true
      WHERE sequence IN (
        SELECT sequence FROM events WHERE NOT dispatched ORDER BY sequence LIMIT 500 FOR UPDATE SKIP LOCKED
      )
      RETURNING sequence, id, workspace_id, event, created_at, data`))
})

const endpointsOf = SqlSchema.findAll({
  Request: Schema.Array(Schema.String),
  Result: Schema.Struct({
    id: Schema.String,
    workspaceId: Schema.String,
    /** jsonb: the event kinds, empty for every event. */
    events: Schema.Array(Schema.String),
    enabled: Schema.Boolean
  }),
  execute: (workspaces) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) =>
      sql`SELECT id, workspace_id, events, enabled FROM webhook_endpoints WHERE ${sql.in("workspace_id", workspaces)}`)
})

/**
 * The fan-out: takes up to 500 committed events not yet fanned out and makes one message per event and
 * matching endpoint of its workspace, the body fixed once; answers how many events it took. An endpoint
 * that is switched off gets its messages too, held until it is switched on (decision 0011).
 */
export const fanOut = (sql: SqlClient.SqlClient) =>
  sql.withTransaction(Effect.gen(function*() {
    const events = yield* dieOnBadRow(Effect.provideService(eventsTaken(undefined), SqlClient.SqlClient, sql))
    if (events.length === 0) return 0
    const workspaces = [...new Set(events.map((event) => event.workspaceId))]
    const endpoints = yield* dieOnBadRow(Effect.provideService(endpointsOf(workspaces), SqlClient.SqlClient, sql))
    const now = new Date(yield* Clock.currentTimeMillis)
    const messages = []
    for (const event of events) {
      const body = JSON.stringify({ id: event.id, event: event.event, createdAt: event.createdAt, data: event.data })
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
