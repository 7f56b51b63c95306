import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// The queue's weekly posting schedules (docs/queue.md): one per workspace (`scope` '') and optional overrides per
// account (`scope` the account's id). `slots` is the sorted JSON list of `{ day, time }`.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE queue_schedules (
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      scope text NOT NULL,
      account_id text REFERENCES accounts (id) ON DELETE CASCADE,
      slots jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (workspace_id, scope),
      CHECK ((scope = '' AND account_id IS NULL) OR scope = account_id)
    )
  `
})
