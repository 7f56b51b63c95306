import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// OAuth 2.1 for `/api/mcp` (issue 19, decision 0045): registered clients, authorization requests waiting for
// a person's consent (then holding the one-time code), grants (a client acting as one member) and their
// tokens. Codes and tokens are kept only as SHA-256 digests, as sessions are.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE oauth_clients (
      id text PRIMARY KEY,
      name text NOT NULL,
      redirect_uris jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`
    CREATE TABLE oauth_grants (
      id text PRIMARY KEY,
      client_id text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      member_id text NOT NULL REFERENCES members (id) ON DELETE CASCADE,
      resource text NOT NULL,
      scopes jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      last_used_at timestamptz,
      revoked_at timestamptz
    )`
  yield* sql`CREATE INDEX oauth_grants_workspace ON oauth_grants (workspace_id, created_at)`
  yield* sql`
    CREATE TABLE oauth_requests (
      id text PRIMARY KEY,
      client_id text NOT NULL REFERENCES oauth_clients (id) ON DELETE CASCADE,
      redirect_uri text NOT NULL,
      code_challenge text NOT NULL,
      state text,
      resource text NOT NULL,
      scopes jsonb NOT NULL,
      expires_at timestamptz NOT NULL,
      decided_at timestamptz,
      member_id text REFERENCES members (id) ON DELETE CASCADE,
      code_hash text UNIQUE,
      code_expires_at timestamptz,
      grant_id text REFERENCES oauth_grants (id) ON DELETE CASCADE
    )`
  yield* sql`
    CREATE TABLE oauth_tokens (
      hash text PRIMARY KEY,
      grant_id text NOT NULL REFERENCES oauth_grants (id) ON DELETE CASCADE,
      kind text NOT NULL CHECK (kind IN ('access', 'refresh')),
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`
  yield* sql`CREATE INDEX oauth_tokens_grant ON oauth_tokens (grant_id)`
})
