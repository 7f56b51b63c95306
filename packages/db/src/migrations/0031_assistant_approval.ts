import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// Safe by default for agents (issue 19, decision 0048): a workspace holds what OAuth-connected assistants
// create or schedule for approval unless the consenting member let that assistant publish directly, which
// the grant records. Existing workspaces get the safe default too.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE workspaces ADD COLUMN assistant_approval boolean NOT NULL DEFAULT true`
  yield* sql`ALTER TABLE oauth_grants ADD COLUMN publishes_directly boolean NOT NULL DEFAULT false`
  yield* sql`ALTER TABLE oauth_requests ADD COLUMN publishes_directly boolean NOT NULL DEFAULT false`
})
