import { Effect, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import type { SimulatorStore } from "@herald/adapter-kit"

/**
 * The sandbox networks' state in Herald's database (`sandbox_records`), so sandbox accounts, tokens and
 * posts outlive restarts and every process sharing the database serves the same sandbox. Keys are stored as
 * JSON like the values, so a key may hold any text a network was sent (PostgreSQL text refuses NUL).
 */
const decodeKey = Schema.decodeSync(Schema.fromJsonString(Schema.String))

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // A record's row, decoded rather than asserted: a row unlike it dies, as a database failure does here.
  const recordsSince = SqlSchema.findAll({
    Request: Schema.Struct({ network: Schema.String, version: Schema.Number }),
    Result: Schema.Struct({
      kind: Schema.String,
      key: Schema.String,
      value: Schema.NullOr(Schema.String),
      origin: Schema.String,
      version: Schema.String
    }),
    execute: ({ network, version }) => sql`
          SELECT kind, key, value, origin, version::text AS version FROM sandbox_records
          WHERE network = ${network} AND version > ${version}
          ORDER BY version
        `
  })
  return {
    since: (network, version) =>
      Effect.map(
        recordsSince({ network, version }),
        (rows) => rows.map((row) => ({
          kind: row.kind,
          key: decodeKey(row.key),
          json: row.value,
          origin: row.origin,
          version: Number(row.version)
        }))
      ).pipe(Effect.orDie),
    // One writer per network at a time (a lock held until the statement commits, taken before any version
    // is), so versions are taken in commit order and a process that loaded up to a version never misses a
    // record committed later with a lower one. One statement: one round trip.
    save: (network, origin, changes) => {
      const rows = JSON.stringify(changes.map((change) => ({ kind: change.kind, key: JSON.stringify(change.key), value: change.json })))
      return sql`
        WITH writer AS (SELECT pg_advisory_xact_lock(hashtext(${`herald.sandbox:${network}`})))
        INSERT INTO sandbox_records (network, kind, key, value, origin, version)
        SELECT ${network}, record.kind, record.key, record.value, ${origin}, nextval('sandbox_records_version')
        FROM writer, json_to_recordset(${rows}::json) AS record (kind text, key text, value text)
        ON CONFLICT (network, kind, key) DO UPDATE
          SET value = excluded.value, origin = excluded.origin, version = excluded.version
      `.pipe(Effect.asVoid, Effect.orDie)
    }
  } satisfies SimulatorStore.SimulatorStore
})
