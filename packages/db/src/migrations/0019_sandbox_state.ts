import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// The sandbox networks' state (accounts, tokens, posts, containers, comments, messages), one row per record
// of a simulator's table, so that it outlives restarts and every process serves the same sandbox. A record
// written again takes the next `version`: a process loads what was saved after the last version it saw.
// Keys and values are JSON text (not jsonb), which holds any string a network was sent.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE SEQUENCE sandbox_records_version`
  yield* sql`
    CREATE TABLE sandbox_records (
      network text NOT NULL,
      kind text NOT NULL,
      key text NOT NULL,
      value text,
      origin text NOT NULL,
      version bigint NOT NULL,
      PRIMARY KEY (network, kind, key)
    )
  `
  yield* sql`CREATE INDEX sandbox_records_by_version ON sandbox_records (network, version)`
})
