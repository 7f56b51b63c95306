import * as PgClient from "@effect/sql-pg/PgClient"
import type * as PgConnection from "@effect/sql-pg/PgConnection"
import { Context, Effect, Layer, String } from "effect"
import { hostname } from "node:os"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as Migrator from "effect/sql/Migrator"
import { SqlClient } from "effect/sql/SqlClient"
import type { SqlError } from "effect/sql/SqlError"
import type { Scope } from "effect/Scope"
import { DatabaseInfo } from "../DatabaseInfo.ts"
import { migrations } from "../migrations/index.ts"

/**
 * Client settings shared by both backends.
 *
 * Columns are snake_case in SQL and camelCase in code: result names are
 * converted on the way out, identifiers (`sql(name)`, `sql.insert(...)`) on
 * the way in. JSON documents are left alone (`transformJson: false`): a
 * jsonb column holds data from networks and webhooks whose keys must
 * round-trip unchanged.
 *
 * Values come back as `@effect/sql-pg` decodes its binary results, which
 * suits the schema as is: `timestamptz` -> `Date`, `int8` -> `bigint`,
 * `bytea` -> `Uint8Array`, `numeric` -> `string`, `json`/`jsonb` -> the parsed
 * value, arrays -> arrays. Parameters bind the same way in reverse (a `Date`
 * as timestamptz, a `bigint` as int8, a `Uint8Array` as bytea; a string is
 * untyped so PostgreSQL infers it from the statement); pass a JSON document
 * with `sql.json(value)`.
 */
const clientOptions = {
  // Per process, so PostgreSQL's view of the sessions (pg_stat_activity) tells one Herald process's pool
  // from another's: /metrics reports this process's connections in use and idle (decision 0049).
  applicationName: `herald/${hostname()}/${process.pid}`.slice(0, 63),
  transformResultNames: String.snakeToCamel,
  transformQueryNames: String.camelToSnake,
  transformJson: false
} as const

// No schema dump: it shells out to pg_dump, which cannot reach PGlite.
const runMigrations = Migrator.make({})

/** Runs the migrations of this package, in id order, once per database. */
export const migrate: Effect.Effect<ReadonlyArray<readonly [id: number, name: string]>, Migrator.MigrationError | SqlError, SqlClient> =
  runMigrations({ loader: Migrator.fromRecord(migrations) })

export type Services = SqlClient | PgClient.PgClient | DatabaseInfo

/**
 * A migrated client layer. `connect` runs in the layer's scope before the
 * client, so what it opens (the PGlite bridge) closes after the pool.
 */
export const layerClient = <E>(
  connect: Effect.Effect<PgConnection.Config, E, Scope>,
  info: Omit<DatabaseInfo["Service"], "connection" | "appliedMigrations">
): Layer.Layer<Services, E | SqlError | Migrator.MigrationError> =>
  Layer.effectContext(Effect.gen(function*() {
    const connection = yield* connect
    const client = yield* PgClient.make({ ...connection, ...clientOptions })
    const appliedMigrations = yield* migrate.pipe(Effect.provideService(SqlClient, client))
    return Context.make(PgClient.PgClient, client).pipe(
      Context.add(SqlClient, client),
      Context.add(DatabaseInfo, { ...info, connection, appliedMigrations })
    )
  })).pipe(Layer.provide(Reactivity.layer))
