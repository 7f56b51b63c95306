import { Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import { Timestamp } from "./rows.ts"

// Webhooks' statements on its endpoints, each with the schema its rows are decoded by (decision 0087).

/** A `webhook_endpoints` row as `columns` reads it, decoded rather than asserted (a row unlike it dies). */
export const EndpointRow = Schema.Struct({
  id: Schema.String,
  url: Schema.String,
  /** jsonb: the event kinds, empty for every event. */
  events: Schema.Array(Schema.String),
  description: Schema.NullOr(Schema.String),
  enabled: Schema.Boolean,
  consecutiveFailures: Schema.Number,
  disabledAt: Schema.NullOr(Timestamp),
  createdAt: Timestamp
})
export type EndpointRow = typeof EndpointRow.Type

const columns = "id, url, events, description, enabled, consecutive_failures, disabled_at, created_at"

/** Which endpoint of which workspace. */
const EndpointKey = Schema.Struct({ workspaceId: Schema.String, endpointId: Schema.String })

/** Webhooks' statements on `sql`, built once by its layer. */
export const endpointStatements = (sql: SqlClient.SqlClient) => ({
  endpointIn: SqlSchema.findOneOption({
    Request: EndpointKey,
    Result: EndpointRow,
    execute: ({ endpointId, workspaceId }) =>
      sql`SELECT ${sql.literal(columns)} FROM webhook_endpoints WHERE id = ${endpointId} AND workspace_id = ${workspaceId}`
  }),
  endpointCount: SqlSchema.findOneOption({
    Request: Schema.String,
    // count(*) is a bigint: PostgreSQL's driver gives its text, the embedded database a BigInt.
    Result: Schema.Struct({ count: Schema.Union([Schema.Number, Schema.String, Schema.BigInt]) }),
    execute: (workspaceId) => sql`
        SELECT count(*) AS count FROM webhook_endpoints WHERE workspace_id = ${workspaceId}`
  }),
  endpointCreated: SqlSchema.findOne({
    Request: Schema.Struct({
      id: Schema.String,
      workspaceId: Schema.String,
      url: Schema.String,
      events: Schema.String,
      description: Schema.NullOr(Schema.String),
      secret: Schema.Uint8Array
    }),
    Result: EndpointRow,
    execute: (input) => sql`
        INSERT INTO webhook_endpoints (id, workspace_id, url, events, description, secret)
        VALUES (${input.id}, ${input.workspaceId}, ${input.url}, ${input.events}::jsonb,
          ${input.description}, ${input.secret})
        RETURNING ${sql.literal(columns)}`
  }),
  endpointsOf: SqlSchema.findAll({
    Request: Schema.String,
    Result: EndpointRow,
    execute: (workspaceId) => sql`
      SELECT ${sql.literal(columns)} FROM webhook_endpoints WHERE workspace_id = ${workspaceId} ORDER BY created_at, id`
  }),
  endpointLocked: SqlSchema.findOneOption({
    Request: EndpointKey,
    Result: Schema.Struct({ enabled: Schema.Boolean }),
    execute: ({ endpointId, workspaceId }) => sql`
        SELECT enabled FROM webhook_endpoints WHERE id = ${endpointId} AND workspace_id = ${workspaceId} FOR NO KEY UPDATE`
  }),
  endpointUpdated: SqlSchema.findOne({
    Request: Schema.Struct({
      endpointId: Schema.String,
      url: Schema.NullOr(Schema.String),
      /** The events as JSON, or undefined to keep them; likewise the description and whether it is on. */
      events: Schema.UndefinedOr(Schema.String),
      description: Schema.UndefinedOr(Schema.NullOr(Schema.String)),
      enabled: Schema.UndefinedOr(Schema.Boolean)
    }),
    Result: EndpointRow,
    execute: ({ description, enabled, endpointId, events, url }) => sql`
        UPDATE webhook_endpoints SET
          url = coalesce(${url}, url),
          events = ${events === undefined ? sql`events` : sql`${events}::jsonb`},
          description = ${description === undefined ? sql`description` : sql`${description}`},
          enabled = coalesce(${enabled ?? null}, enabled),
          -- Switching an endpoint on starts its failure count again.
          consecutive_failures = CASE WHEN ${enabled === true} THEN 0 ELSE consecutive_failures END,
          disabled_at = CASE WHEN ${enabled === true} THEN NULL
            WHEN ${enabled === false} THEN coalesce(disabled_at, now()) ELSE disabled_at END,
          updated_at = now()
        WHERE id = ${endpointId}
        RETURNING ${sql.literal(columns)}`
  }),
  secretRotated: SqlSchema.findOneOption({
    Request: Schema.Struct({ ...EndpointKey.fields, secret: Schema.Uint8Array }),
    Result: EndpointRow,
    execute: ({ endpointId, secret, workspaceId }) => sql`
      UPDATE webhook_endpoints SET secret = ${secret}, updated_at = now()
      WHERE id = ${endpointId} AND workspace_id = ${workspaceId}
      RETURNING ${sql.literal(columns)}`
  })
})
