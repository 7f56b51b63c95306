import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// Workspaces, their members, API keys, connected accounts and the shared request counters.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE workspaces (
      id text PRIMARY KEY,
      name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )
  `
  yield* sql`
    CREATE TABLE members (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      email text NOT NULL,
      role text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (workspace_id, email)
    )
  `
  yield* sql`
    CREATE TABLE api_keys (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      name text NOT NULL,
      hash bytea NOT NULL UNIQUE,
      last_four text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz,
      revoked_at timestamptz
    )
  `
  yield* sql`CREATE INDEX api_keys_workspace ON api_keys (workspace_id, created_at)`
  yield* sql`
    CREATE TABLE accounts (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      platform text NOT NULL,
      username text NOT NULL,
      display_name text,
      avatar_url text,
      status text NOT NULL DEFAULT 'connected',
      connected_at timestamptz NOT NULL DEFAULT now(),
      created_at timestamptz NOT NULL DEFAULT now()
    )
  `
  yield* sql`CREATE INDEX accounts_workspace ON accounts (workspace_id, created_at, id)`
  yield* sql`
    CREATE TABLE rate_limit_windows (
      subject text NOT NULL,
      window_start timestamptz NOT NULL,
      count integer NOT NULL,
      PRIMARY KEY (subject, window_start)
    )
  `
})
