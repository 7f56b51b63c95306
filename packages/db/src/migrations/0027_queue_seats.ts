import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// The queue's seats (docs/queue.md): a queued post holds one seat per account it goes to, at its slot's instant.
// The primary key is what makes a slot hold at most one queued post per account, whichever process books it:
// two creates racing for one slot cannot both commit. A seat goes with its post (deleted, or taken out of the
// queue) and with its account.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE queue_seats (
      account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      slot_at timestamptz NOT NULL,
      post_id text NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      PRIMARY KEY (account_id, slot_at)
    )
  `
  yield* sql`CREATE INDEX queue_seats_post ON queue_seats (post_id)`
  yield* sql`CREATE INDEX queue_seats_workspace ON queue_seats (workspace_id, slot_at)`
})
