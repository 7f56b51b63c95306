/**
 * Which database the SQL client talks to. Most code never needs to know;
 * what does (the cluster runner must turn off advisory shard locks on
 * PGlite, admin tools want the data folder's lock) reads it here.
 *
 * @since 0.0.0
 */
import type { PGlite } from "@electric-sql/pglite"
import type * as PgConnection from "@effect/sql-pg/PgConnection"
import { Context, type Option } from "effect"
import type { DataDirLock } from "./DataDirLock.ts"

export type Backend = "postgres" | "embedded"

export class DatabaseInfo extends Context.Service<DatabaseInfo, {
  readonly backend: Backend
  /** The embedded database itself; use it only while no bridged connection is busy. */
  readonly pglite: Option.Option<PGlite>
  /** The data folder's lock, when the embedded database persists to one. */
  readonly dataDirLock: Option.Option<DataDirLock>
  /** How the pool connects: open one more session with `PgConnection.make(info.connection)`. */
  readonly connection: PgConnection.Config
  /** The migrations this layer applied when it started (`[id, name]`); empty when the schema was current. */
  readonly appliedMigrations: ReadonlyArray<readonly [id: number, name: string]>
}>()("@herald/db/DatabaseInfo") {}
