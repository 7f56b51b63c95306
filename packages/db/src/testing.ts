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
import { Effect, Exit, FileSystem, Layer, Option, Path, Redacted, Schedule, Scope } from "effect"
import type { PlatformError } from "effect/PlatformError"
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

const poolKey: unique symbol = Symbol.for("@herald/db/testing/kept")

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

const openTemplate: Effect.Effect<PGlite, BackendError, Scope.Scope | FileSystem.FileSystem | Path.Path> =
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const file = path.join(tmpdir(), `herald-db-template-${yield* templateKey}.tar`)
    if (!(yield* fs.exists(file))) return yield* makeTemplate(file)
    const tarball = yield* fs.readFile(file)
    return yield* Database.openPglite({ loadDataDir: new Blob([tarball as Uint8Array<ArrayBuffer>]) })
  })

/**
 * What every object of the database's schema is (relations and their columns, constraints, triggers,
 * functions, types) and which migrations it records, as one digest: a database is handed to the next layer
 * only if a test left its schema as it found it. The cluster's own tables (`cluster_…`), which it makes and
 * migrates itself the first time it starts, are left out: they are the same every time.
 */
const schemaDigest = `
  SELECT md5(coalesce(string_agg(x, E'\\n' ORDER BY x), '')) AS digest FROM (
    SELECT c.relkind::text || ' ' || c.oid::regclass::text || ' ' || coalesce((
      SELECT string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull::text || ' '
        || coalesce(pg_get_expr(d.adbin, d.adrelid), ''), ', ' ORDER BY a.attnum)
      FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped), '') AS x
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname NOT IN ('pg_catalog', 'information_schema', 'pg_toast') AND c.relname NOT LIKE 'cluster\\_%'
    UNION ALL SELECT 'trigger ' || tgname || ' ' || tgrelid::regclass::text FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL SELECT 'constraint ' || conname || ' ' || pg_get_constraintdef(oid) FROM pg_constraint
      WHERE connamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
        AND conrelid::regclass::text NOT LIKE 'cluster\\_%'
    UNION ALL SELECT 'function ' || oid::regprocedure::text FROM pg_proc
      WHERE pronamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace)
    UNION ALL SELECT 'type ' || oid::regtype::text FROM pg_type
      WHERE typnamespace NOT IN ('pg_catalog'::regnamespace, 'information_schema'::regnamespace, 'pg_toast'::regnamespace)
        AND typtype IN ('c', 'd', 'e', 'r') AND typrelid = 0
    UNION ALL SELECT 'migration ' || migration_id::text || ' ' || name FROM effect_sql_migrations
  ) s`

/**
 * Empties every table but the migrators' (Herald's and the cluster's record of what they applied), puts
 * every sequence back at its start, and ends whatever the session still holds (settings, advisory locks,
 * prepared statements, temporary tables, channels listened to).
 */
const emptying = [
  `DO $$
  DECLARE tables text;
  BEGIN
    SELECT string_agg(format('%I.%I', schemaname, tablename), ', ') INTO tables FROM pg_tables
      WHERE schemaname NOT IN ('pg_catalog', 'information_schema') AND tablename NOT LIKE '%migrations';
    IF tables IS NOT NULL THEN EXECUTE 'TRUNCATE ' || tables || ' RESTART IDENTITY CASCADE'; END IF;
  END $$`,
  `DO $$
  DECLARE s record;
  BEGIN
    FOR s IN SELECT format('%I.%I', schemaname, sequencename) AS name FROM pg_sequences
      WHERE schemaname NOT IN ('pg_catalog', 'information_schema')
    LOOP EXECUTE 'ALTER SEQUENCE ' || s.name || ' RESTART'; END LOOP;
  END $$`,
  // Outside a transaction block, which the DO statements above are not.
  "DISCARD ALL"
]

/** A migrated database this worker holds open, with the scope that closes it and its schema's digest. */
interface Kept {
  readonly pglite: PGlite
  readonly scope: Scope.Closeable
  readonly digest: string
}

/**
 * The migrated databases released layers gave back, for the next layer in this worker process (a worker
 * runs file after file: vitest.shared.ts's `isolate`). Loading the template costs 2 to 3 s of CPU on a
 * 2-core machine, emptying a database about 0.1 s. Kept on `globalThis`, so a module evaluated again for
 * another file still finds them; at most two, the most one file holds at once in practice.
 */
const kept: Array<Kept> = ((globalThis as { [poolKey]?: Array<Kept> })[poolKey] ??= [])
const keepAtMost = 2

const digestOf = (pglite: PGlite) =>
  pglite.query<{ digest: string }>(schemaDigest).then((result) => result.rows[0]!.digest)

const openKept: Effect.Effect<Kept, BackendError, FileSystem.FileSystem | Path.Path> = Effect.gen(function*() {
  const scope = yield* Scope.make()
  const pglite = yield* openTemplate.pipe(Scope.provide(scope), Effect.onError(() => Scope.close(scope, Exit.void)))
  const digest = yield* Effect.tryPromise({
    try: () => digestOf(pglite),
    catch: (cause) => new Database.EmbeddedDatabaseError({ dataDir: undefined, cause })
  }).pipe(Effect.onError(() => Scope.close(scope, Exit.void)))
  return { pglite, scope, digest }
})

/** Back to the pool if it is still open, its schema is as it was and it empties cleanly; closed otherwise. */
const giveBack = (database: Kept) =>
  Effect.promise(async () => {
    if (database.pglite.closed || kept.length >= keepAtMost) return false
    try {
      if ((await digestOf(database.pglite)) !== database.digest) return false
      for (const statement of emptying) await database.pglite.exec(statement)
      return true
    } catch {
      return false
    }
  }).pipe(Effect.flatMap((reusable) =>
    reusable ? Effect.sync(() => kept.push(database)) : Scope.close(database.scope, Exit.void)
  ))

/** A migrated, empty embedded database for the scope: one this worker kept if it has one, else the template. */
const openMigrated: Effect.Effect<PGlite, BackendError, Scope.Scope | FileSystem.FileSystem | Path.Path> = Effect.map(
  Effect.acquireRelease(Effect.suspend(() => {
    const database = kept.pop()
    return database === undefined ? openKept : Effect.succeed(database)
  }), giveBack),
  (database) => database.pglite
)

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
