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
import type { PGlite } from "@electric-sql/pglite"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import * as NodePath from "@effect/platform-node/NodePath"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, FileSystem, Layer, Option, Path, Redacted } from "effect"
import type { PlatformError } from "effect/PlatformError"
import type { Scope } from "effect/Scope"
import * as Reactivity from "effect/reactivity/Reactivity"
import type { MigrationError } from "effect/sql/Migrator"
import type { SqlError } from "effect/sql/SqlError"
import { createHash, randomBytes } from "node:crypto"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { Duplex } from "node:stream"
import { fileURLToPath } from "node:url"
import * as Database from "./Database.ts"
import { layerClient } from "./internal/client.ts"
import { migrations } from "./migrations/index.ts"
import * as PgliteBridge from "./PgliteBridge.ts"

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

/**
 * A fresh PGlite costs about 3 s (initdb) and the migrations; loading a
 * migrated data folder from a tarball takes about 0.3 s. The tarball is
 * kept in the temp folder under a key of everything it depends on, and
 * made by whichever test process first misses it. The key is exported
 * for other templates of a migrated database (the command line's tests
 * keep a migrated data folder under it).
 */
export const templateKey = Effect.gen(function*() {
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const hash = createHash("sha256")
  const pgliteMain = createRequire(import.meta.url).resolve("@electric-sql/pglite")
  hash.update(yield* fs.readFileString(path.join(path.dirname(pgliteMain), "..", "package.json")))
  hash.update(Object.keys(migrations).sort().join("\n"))
  // The migrations' source, so that editing one under the same id is noticed.
  const folder = fileURLToPath(new URL("./migrations/", import.meta.url))
  for (const name of (yield* fs.readDirectory(folder)).sort()) {
    hash.update(name)
    hash.update(yield* fs.readFile(path.join(folder, name)))
  }
  return hash.digest("hex").slice(0, 16)
})

const makeTemplate = Effect.fnUntraced(function*(file: string) {
  const fs = yield* FileSystem.FileSystem
  const pglite = yield* Database.openPglite({})
  yield* Layer.build(Database.layerPglite(pglite)).pipe(Effect.scoped)
  const tarball = yield* Effect.tryPromise({
    try: () => pglite.dumpDataDir("none").then((blob) => blob.arrayBuffer()),
    catch: (cause) => new Database.EmbeddedDatabaseError({ dataDir: undefined, cause })
  })
  // Written aside and renamed, so a concurrent test process never loads half a file.
  const partial = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`
  yield* fs.writeFile(partial, new Uint8Array(tarball))
  yield* fs.rename(partial, file)
  return pglite
})

const openMigrated: Effect.Effect<PGlite, BackendError, Scope | FileSystem.FileSystem | Path.Path> =
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const file = path.join(tmpdir(), `herald-db-template-${yield* templateKey}.tar`)
    if (!(yield* fs.exists(file))) return yield* makeTemplate(file)
    const tarball = yield* fs.readFile(file)
    return yield* Database.openPglite({ loadDataDir: new Blob([tarball as Uint8Array<ArrayBuffer>]) })
  })

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

const postgres = (adminUrl: string): Backend => ({
  name: "postgres",
  layer: Layer.unwrap(Effect.gen(function*() {
    // Server-side identifiers: lower-case letters and digits need no quoting.
    const name = `herald_t_${randomBytes(6).toString("hex")}`
    yield* Effect.acquireRelease(
      onAdmin(adminUrl, `CREATE DATABASE ${name}`),
      () =>
        onAdmin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).pipe(
          Effect.catch((error) => Effect.logWarning(`Could not drop the test database ${name}`, error))
        )
    )
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    return Database.layerUrl(Redacted.make(url.toString()))
  }))
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
