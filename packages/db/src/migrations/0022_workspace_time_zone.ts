import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// A workspace's time zone (an IANA name), set in the console's settings; UTC for every workspace until then.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE workspaces ADD COLUMN time_zone text NOT NULL DEFAULT 'UTC'`
})
