/**
 * Databases for tests. `backends()` lists every backend storage tests should
 * pass on: the embedded database always, and a PostgreSQL server when
 * `HERALD_TEST_DATABASE_URL` names one (an admin URL: the tests create and
 * drop databases through it). Each build of a backend's layer is a new,
 * migrated, empty database, gone when the layer is released.
 *
 * ```ts
 * for (const backend of backends()) {
 *   layer(backend.layer, { excludeTestServices: true })(`Posts (${backend.name})`, (it) => {
 *     it.effect("...", () => Effect.gen(function*() { const sql = yield* SqlClient.SqlClient ... }))
 *   })
 * }
 * ```
 *
 * @since 0.0.0
 */
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Layer, Option, Redacted, Schedule } from "effect"
import type { PlatformError } from "effect/PlatformError"
import * as Reactivity from "effect/reactivity/Reactivity"
import type { MigrationError } from "effect/sql/Migrator"
import type { SqlError } from "effect/sql/SqlError"
import { randomBytes } from "node:crypto"
import { Duplex } from "node:stream"
import * as Database from "./Database.ts"
import { layerClient } from "./internal/client.ts"
import { openMigrated, templateKey } from "./internal/embeddedTemplate.ts"
import * as PgliteBridge from "./PgliteBridge.ts"

export { templateKey }

export type BackendError =
  | SqlError
  | MigrationError
  | PgliteBridge.PgliteBridgeError
  | Database.EmbeddedDatabaseError
  | PlatformError

export interface Backend {
  readonly name: "pglite" | "postgres"
  readonly layer: Layer.Layer<Database.Services, BackendError>
}

/**
 * The backends to run storage tests against. Read when test files are
 * collected, so the environment variable is read directly.
 */
export const backends = (): ReadonlyArray<Backend> => {
  const adminUrl = process.env["HERALD_TEST_DATABASE_URL"]
  return adminUrl === undefined || adminUrl === "" ? [pglite] : [pglite, postgres(adminUrl)]
}

const fileServices = Layer.mergeAll(NodeFileSystem.layer, NodePath.layer)

const pglite: Backend = {
  name: "pglite",
  layer: Layer.unwrap(Effect.map(openMigrated, (instance) => Database.layerPglite(instance))).pipe(
    Layer.provide(fileServices)
  )
}

/** Runs one statement on the server's admin database, over a connection of its own. */
const onAdmin = (adminUrl: string, statement: string) =>
  Effect.scoped(
    Effect.flatMap(
      PgClient.make({ url: Redacted.make(adminUrl), maxConnections: 1 }),
      (sql) => sql.unsafe(statement)
    )
  ).pipe(Effect.provide(Reactivity.layer))

/** The admin URL with another database in its path. */
const databaseUrl = (adminUrl: string, name: string) => {
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return url.toString()
}

/**
 * A migrated database on the server that test databases are copies of (`CREATE DATABASE … TEMPLATE`), one
 * per `templateKey`: migrating a new database costs 1 to 2 s, copying one a tenth of that. Whichever test
 * process first misses it migrates a database of its own name and renames it, so no process copies a
 * template half made; one that loses the race drops its own. Nothing connects to a template afterwards,
 * which copying needs.
 */
const serverTemplate = (adminUrl: string) =>
  Effect.gen(function*() {
    const template = `herald_template_${yield* templateKey}`
    const exists = (name: string) =>
      Effect.map(onAdmin(adminUrl, `SELECT 1 FROM pg_database WHERE datname = '${name}'`), (rows) => rows.length > 0)
    if (yield* exists(template)) return template
    const partial = `herald_t_${randomBytes(6).toString("hex")}`
    yield* onAdmin(adminUrl, `CREATE DATABASE ${partial}`)
    yield* Layer.build(Database.layerUrl(databaseUrl(adminUrl, partial))).pipe(Effect.scoped)
    // The migrating connections' server processes may take a moment to end after the pool closed them.
    yield* onAdmin(adminUrl, `ALTER DATABASE ${partial} RENAME TO ${template}`).pipe(
      Effect.retry({ times: 20, schedule: Schedule.spaced("100 millis") }),
      Effect.catch((error) =>
        Effect.flatMap(exists(template), (madeElsewhere) =>
          Effect.andThen(
            onAdmin(adminUrl, `DROP DATABASE IF EXISTS ${partial} WITH (FORCE)`),
            madeElsewhere ? Effect.void : Effect.fail(error)
          ))
      )
    )
    return template
  })

const postgres = (adminUrl: string): Backend => ({
  name: "postgres",
  layer: Layer.unwrap(Effect.gen(function*() {
    const template = yield* serverTemplate(adminUrl)
    // Server-side identifiers: lower-case letters and digits need no quoting.
    const name = `herald_t_${randomBytes(6).toString("hex")}`
    yield* Effect.acquireRelease(
      onAdmin(adminUrl, `CREATE DATABASE ${name} TEMPLATE ${template}`),
      () =>
        onAdmin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).pipe(
          Effect.catch((error) => Effect.logWarning(`Could not drop the test database ${name}`, error))
        )
    )
    return Database.layerUrl(Redacted.make(databaseUrl(adminUrl, name)))
  })).pipe(Layer.provide(fileServices))
})

/** What a test does to the database of `unreachable()`. */
export interface Outage {
  /**
   * The database goes away as a stopped server does: every open connection ends with ECONNRESET, and every
   * new one is refused with ECONNREFUSED (Node.js's errors, as a socket gives them), until `restore`.
   */
  readonly stop: () => void
  readonly restore: () => void
}

const socketError = (message: string, code: string, errno: number, syscall: string) =>
  Object.assign(new Error(message), { code, errno, syscall })

/** A connection refused the way a socket to a stopped server is: an `error` event right after it is made. */
const refused = (): Duplex => {
  const stream = new Duplex({ read() {}, write(_chunk, _encoding, callback) { callback() } })
  setImmediate(() => stream.destroy(socketError("connect ECONNREFUSED 127.0.0.1:5432", "ECONNREFUSED", -111, "connect")))
  return stream
}

/**
 * The embedded test database behind connections a test can cut: `backend` is a fresh migrated database as
 * `backends()` makes, `outage` stops and restores it for the connections the client makes (the driver sees
 * the same socket errors as from a PostgreSQL server that stopped).
 */
export const unreachable = (): { readonly backend: Backend; readonly outage: Outage } => {
  let stopped = false
  const open = new Set<Duplex>()
  const outage: Outage = {
    stop: () => {
      stopped = true
      for (const connection of open) connection.destroy(socketError("read ECONNRESET", "ECONNRESET", -104, "read"))
    },
    restore: () => {
      stopped = false
    }
  }
  const layer = Layer.unwrap(Effect.map(openMigrated, (pglite) =>
    layerClient(
      Effect.map(PgliteBridge.make(pglite), (bridge) => ({
        stream: () => {
          if (stopped) return refused()
          const connection = bridge.connect()
          open.add(connection)
          connection.once("close", () => open.delete(connection))
          return connection
        },
        username: "postgres"
      })),
      { backend: "embedded", pglite: Option.some(pglite), dataDirLock: Option.none() }
    ))).pipe(Layer.provide(fileServices))
  return { backend: { name: "pglite", layer }, outage }
}
