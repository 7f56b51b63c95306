import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// Answers to requests sent with an `Idempotency-Key`, kept 24 hours so a repeat replays the first answer.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE idempotency_keys (
      workspace_id text NOT NULL,
      key text NOT NULL,
      request_hash text NOT NULL,
      status_code integer,
      response_body text,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (workspace_id, key)
    )
  `
  yield* sql`CREATE INDEX idempotency_keys_age ON idempotency_keys (created_at)`
})
