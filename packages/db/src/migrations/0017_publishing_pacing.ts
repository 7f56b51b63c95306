import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// What publishing keeps so that a wait survives a restart and rate-limited targets take turns.
// On the target: the failed calls that count toward giving up (`failed_attempts`; a rate-limited answer
// is waiting, not failing, and does not count), when it tries next (`next_attempt_at`), and since when it
// has been waiting on a network's rate limit (`rate_limited_since`, for the 24-hour deadline).
// Per account: until when the network refuses (`blocked_until`, from its reset time) and the next free
// turn (`next_turn`), from which each waiting target of the account takes its own turn.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE post_targets ADD COLUMN failed_attempts integer NOT NULL DEFAULT 0`
  yield* sql`ALTER TABLE post_targets ADD COLUMN next_attempt_at timestamptz`
  yield* sql`ALTER TABLE post_targets ADD COLUMN rate_limited_since timestamptz`
  yield* sql`
    CREATE TABLE publish_pacing (
      account_id text PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
      blocked_until timestamptz,
      next_turn timestamptz
    )
  `
})
