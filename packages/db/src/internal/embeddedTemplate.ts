/**
 * Migrated embedded databases for tests, as `testing.ts`'s backends take them: the template every one is
 * loaded from (a tarball of a migrated data folder, under a key of what it depends on) and the databases a
 * worker process keeps between test files. Apart from the backends themselves, as the part that makes and
 * recycles embedded databases.
 */
import type { PGlite } from "@electric-sql/pglite"
import { Effect, Exit, FileSystem, Layer, Path, Scope } from "effect"
import { createHash, randomBytes } from "node:crypto"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { fileURLToPath } from "node:url"
import * as Database from "../Database.ts"
import { migrations } from "../migrations/index.ts"
import type { BackendError } from "../testing.ts"

const poolKey: unique symbol = Symbol.for("@herald/db/testing/kept")

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
  const folder = fileURLToPath(new URL("../migrations/", import.meta.url))
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
export const openMigrated: Effect.Effect<PGlite, BackendError, Scope.Scope | FileSystem.FileSystem | Path.Path> = Effect.map(
  Effect.acquireRelease(Effect.suspend(() => {
    const database = kept.pop()
    return database === undefined ? openKept : Effect.succeed(database)
  }), giveBack),
  (database) => database.pglite
)
