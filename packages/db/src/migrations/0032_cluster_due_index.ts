import { Effect } from "effect"
import { SqlMessageStorage } from "effect/cluster"
import { SqlClient } from "effect/sql"
import * as Migrator from "effect/sql/Migrator"

// The cluster's due check (every poll, and after every message sent to a local entity) asks for unprocessed
// messages whose `deliver_at` has come, ordered by `rowid`. Its own indexes lead with the shard or the rowid,
// so it read every future message: 57 ms at 100,000 scheduled posts, and a create's PostgreSQL cost doubled
// as posts piled up. A partial index on the unprocessed messages' `deliver_at` answers it from the few due
// ones (decision 0051).
//
// The cluster makes its tables when its storage starts, after this migrator has run: its own migrations are
// run here first (recorded in its `cluster_migrations`, so it finds them done when it starts), which makes the
// table exist for the index on a new database, embedded or PostgreSQL, and leaves an existing one as it is.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* Migrator.make({})({ loader: SqlMessageStorage.migrations(), table: "cluster_migrations" })
  yield* sql`
    CREATE INDEX IF NOT EXISTS cluster_messages_due ON cluster_messages (deliver_at) WHERE processed = false`
})
