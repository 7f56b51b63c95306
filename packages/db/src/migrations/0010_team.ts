import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// Invitations to join a workspace. The link sent is signed (id and expiry under the secret key), so the
// table holds no token; a row is used once (`accepted_at`), and inviting the same address again revokes the
// earlier invitations (`revoked_at`).
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE invitations (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      email text NOT NULL,
      role text NOT NULL,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      accepted_at timestamptz,
      member_id text REFERENCES members (id) ON DELETE SET NULL,
      revoked_at timestamptz
    )
  `
  yield* sql`CREATE INDEX invitations_workspace ON invitations (workspace_id, created_at, id)`
})
