import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// Connected accounts keep the network's own id and their tokens (encrypted with AES-256-GCM by the core);
// an OAuth flow in progress is remembered by its `state` until the network calls back.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE accounts ADD COLUMN network_account_id text`
  yield* sql`ALTER TABLE accounts ADD COLUMN access_token bytea`
  yield* sql`ALTER TABLE accounts ADD COLUMN refresh_token bytea`
  yield* sql`ALTER TABLE accounts ADD COLUMN token_expires_at timestamptz`
  yield* sql`ALTER TABLE accounts ADD COLUMN scopes text NOT NULL DEFAULT ''`
  yield* sql`ALTER TABLE accounts ADD COLUMN status_reason text`
  yield* sql`ALTER TABLE accounts ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now()`
  yield* sql`
    CREATE UNIQUE INDEX accounts_network_identity ON accounts (workspace_id, platform, network_account_id)
  `
  yield* sql`
    CREATE TABLE oauth_states (
      state text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      platform text NOT NULL,
      code_verifier bytea,
      redirect_uri text NOT NULL,
      sandbox_username text,
      created_at timestamptz NOT NULL DEFAULT now(),
      expires_at timestamptz NOT NULL
    )
  `
})
