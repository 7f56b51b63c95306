import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// Passing faults are retried for a time, not a count (decision 0065): `faulting_since` is when the first
// passing fault of the target's current run happened (cleared by a call that goes through), so a restart
// keeps the schedule; `late_reason` says why the target is late ("<network> failing since ...; retrying"), kept once
// it ends, for the punctuality issue to read.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE post_targets ADD COLUMN faulting_since timestamptz`
  yield* sql`ALTER TABLE post_targets ADD COLUMN late_reason text`
})
