import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// What the publishing engine keeps per target so that a crash never makes it post twice: `call` is set
// before each network call and cleared after its answer is recorded, so a target found with `call` set
// was interrupted mid-call and is checked with the network instead of being sent again. `handle` is the
// adapter's progress between steps (a container being processed, the next reply of a thread).
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE post_targets ADD COLUMN call text`
  yield* sql`ALTER TABLE post_targets ADD COLUMN handle text`
  yield* sql`ALTER TABLE post_targets ADD COLUMN network_post_id text`
  yield* sql`ALTER TABLE post_targets ADD COLUMN attempts integer NOT NULL DEFAULT 0`
  yield* sql`ALTER TABLE post_targets ADD COLUMN ended_at timestamptz`
  // Set when a post went out late (no process was running at its time); the final event carries it.
  yield* sql`ALTER TABLE posts ADD COLUMN publish_note text`
  // The sweep that finds scheduled posts whose time has passed without their message arriving.
  yield* sql`CREATE INDEX posts_due ON posts (scheduled_at) WHERE status = 'scheduled'`
})
