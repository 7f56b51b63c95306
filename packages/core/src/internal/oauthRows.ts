import { Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import { Timestamp } from "./rows.ts"

// The statements of `OAuth`'s authorization flow, each with the schema its rows are decoded by (decision 0087).

/** An `oauth_clients` row as `/authorize` reads it: its redirect URIs are the jsonb list it registered. */
const ClientRow = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  redirectUris: Schema.Array(Schema.String)
})

/** A client as registered, with when (a timestamp, turned back into the `Date` of `Client`). */
const RegisteredRow = Schema.Struct({ ...ClientRow.fields, createdAt: Timestamp })

/** A request waiting for its answer, with its client's name. */
const RequestRow = Schema.Struct({
  id: Schema.String,
  clientId: Schema.String,
  clientName: Schema.String,
  redirectUri: Schema.String,
  state: Schema.NullOr(Schema.String),
  resource: Schema.String,
  scopes: Schema.Array(Schema.String),
  expiresAt: Timestamp
})

/** `OAuth`'s statements on `sql`, built once by its layer. */
export const oauthStatements = (sql: SqlClient.SqlClient) => ({
  registered: SqlSchema.findOne({
    Request: Schema.Struct({ id: Schema.String, name: Schema.String, redirectUris: Schema.Array(Schema.String) }),
    Result: RegisteredRow,
    execute: ({ id, name, redirectUris }) =>
      sql`
          INSERT INTO oauth_clients (id, name, redirect_uris) VALUES (${id}, ${name}, ${JSON.stringify(redirectUris)}::jsonb)
          RETURNING id, name, redirect_uris, created_at`
  }),
  client: SqlSchema.findOneOption({
    Request: Schema.String,
    Result: ClientRow,
    execute: (clientId) => sql`SELECT id, name, redirect_uris FROM oauth_clients WHERE id = ${clientId}`
  }),
  // `count(*)::int` is an int4, a number from both drivers.
  waiting: SqlSchema.findOneOption({
    Request: Schema.Struct({ clientId: Schema.String, now: Schema.Date }),
    Result: Schema.Struct({ count: Schema.Number }),
    execute: ({ clientId, now }) =>
      sql`
          SELECT count(*)::int AS count FROM oauth_requests
          WHERE client_id = ${clientId} AND decided_at IS NULL AND expires_at > ${now}`
  }),
  open: SqlSchema.findOneOption({
    Request: Schema.Struct({ requestId: Schema.String, now: Schema.Date }),
    Result: RequestRow,
    execute: ({ now, requestId }) =>
      sql`
          SELECT r.id, r.client_id, c.name AS client_name, r.redirect_uri, r.state, r.resource, r.scopes, r.expires_at
          FROM oauth_requests r JOIN oauth_clients c ON c.id = r.client_id
          WHERE r.id = ${requestId} AND r.decided_at IS NULL AND r.expires_at > ${now}`
  }),
  directPublishing: SqlSchema.findAll({
    Request: Schema.String,
    Result: Schema.Struct({ id: Schema.String }),
    execute: (personId) =>
      sql`
          SELECT w.id FROM people p JOIN members m ON lower(m.email) = lower(p.email) JOIN workspaces w ON w.id = m.workspace_id
          WHERE p.id = ${personId} AND (m.role IN ('owner', 'admin') OR (m.role = 'editor' AND NOT w.approval_required))`
  })
})
