import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// Approvals: a workspace may require them, and an API key may act for a member (and so with the member's
// role: an editor's key submits posts for approval where a workspace key schedules them). A key goes with
// its member.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE workspaces ADD COLUMN approval_required boolean NOT NULL DEFAULT false`
  yield* sql`ALTER TABLE api_keys ADD COLUMN member_id text REFERENCES members (id) ON DELETE CASCADE`
})
