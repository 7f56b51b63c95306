import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// Rate limit counts live for the current minute and the next; a process takes a block of permits from them
// with one statement. They need no write-ahead log: a database crash loses at most one minute's counts,
// and every reservation is cheaper for it.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE rate_limit_windows SET UNLOGGED`
})
