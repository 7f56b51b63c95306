import { Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import { Timestamp } from "./rows.ts"

// The statements of `Connections`, each with the schema its rows are decoded by (decision 0087).

/** Herald's app on a server of a network of many: its client id, and its secret sealed. */
const NetworkAppRow = Schema.Struct({ clientId: Schema.String, clientSecret: Schema.Uint8Array })

/** Herald's app on `server` of `network`, if registered there; `TokenRefresh` refreshes with it too. */
export const networkApp = (sql: SqlClient.SqlClient) =>
  SqlSchema.findOneOption({
    Request: Schema.Struct({ network: Schema.String, server: Schema.String }),
    Result: NetworkAppRow,
    execute: ({ network, server }) =>
      sql`
            SELECT client_id, client_secret FROM network_apps WHERE network = ${network} AND server = ${server}`
  })

/** A consent flow as `start` kept it, read once by its callback; the PKCE verifier is sealed. */
const StateRow = Schema.Struct({
  workspaceId: Schema.String,
  platform: Schema.String,
  codeVerifier: Schema.NullOr(Schema.Uint8Array),
  redirectUri: Schema.String,
  server: Schema.NullOr(Schema.String),
  expiresAt: Timestamp
})

/** `Connections`' statements on `sql`, built once by its layer. */
export const connectionStatements = (sql: SqlClient.SqlClient) => ({
  networkApp: networkApp(sql),
  // The state is single-use: taken and deleted in one statement.
  stateTaken: SqlSchema.findOneOption({
    Request: Schema.String,
    Result: StateRow,
    execute: (state) =>
      sql`
          DELETE FROM oauth_states WHERE state = ${state}
          RETURNING workspace_id, platform, code_verifier, redirect_uri, server, expires_at
        `
  }),
  stateCancelled: SqlSchema.findOneOption({
    Request: Schema.String,
    Result: StateRow.mapFields(({ expiresAt, platform, workspaceId }) => ({ workspaceId, platform, expiresAt })),
    execute: (state) =>
      sql`
          DELETE FROM oauth_states WHERE state = ${state} RETURNING workspace_id, platform, expires_at`
  }),
  disconnected: SqlSchema.findOneOption({
    Request: Schema.Struct({ workspaceId: Schema.String, accountId: Schema.String }),
    Result: Schema.Struct({ platform: Schema.String }),
    execute: ({ accountId, workspaceId }) =>
      sql`
            UPDATE accounts SET status = 'disconnected', access_token = NULL, refresh_token = NULL, updated_at = now()
            WHERE id = ${accountId} AND workspace_id = ${workspaceId} AND status <> 'disconnected'
            RETURNING platform
          `
  })
})
