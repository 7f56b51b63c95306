/**
 * Whether the database's schema is the one this code was written for. Every process migrates at start, so a
 * gap shows up later: a migration row removed by hand (`behind`), or a newer release that migrated the shared
 * database while this older process keeps running (`ahead`). Readiness reports either, since both mean this
 * process may read or write columns that are not what it expects.
 *
 * @since 0.0.0
 */
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql/SqlClient"
import * as SqlSchema from "effect/sql/SqlSchema"
import type { SqlError } from "effect/sql/SqlError"
import { migrations } from "./migrations/index.ts"

/** `current`: the applied set equals the code's; `behind`: some of the code's are missing; `ahead`: the database has ids the code does not know. */
export type MigrationState = "current" | "behind" | "ahead"

/** The migration ids this code carries, from the `NNNN_name` keys the migrator reads. */
export const expectedIds: ReadonlyArray<number> = Object.keys(migrations)
  .map((key) => Number(key.slice(0, key.indexOf("_"))))
  .sort((a, b) => a - b)

/**
 * Compares the applied migrations (`effect_sql_migrations`, the migrator's table) with `expectedIds`.
 * An unknown id counts before a missing one: a newer schema is the likelier and the more serious case.
 */
export const check: Effect.Effect<MigrationState, SqlError, SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient
  const applied = SqlSchema.findAll({
    Request: Schema.Void,
    // An integer column; read with `Number` whatever form the driver gives it in.
    Result: Schema.Struct({ migrationId: Schema.Union([Schema.Number, Schema.String, Schema.BigInt]) }),
    execute: () => sql`SELECT migration_id FROM effect_sql_migrations`
  })
  // A row unlike its schema is a bug: it dies.
  const rows = yield* Effect.catchIf(applied(undefined), Schema.isSchemaError, Effect.die)
  return compare(rows.map((row) => Number(row.migrationId)))
})

/** The state of a database whose applied migration ids are `applied`. */
export const compare = (applied: ReadonlyArray<number>): MigrationState => {
  const known = new Set(expectedIds)
  if (applied.some((id) => !known.has(id))) return "ahead"
  const present = new Set(applied)
  return expectedIds.every((id) => present.has(id)) ? "current" : "behind"
}
