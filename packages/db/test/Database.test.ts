import { migrations } from "../src/migrations/index.ts"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as PgConnection from "@effect/sql-pg/PgConnection"
import * as NodeFileSystem from "@effect/platform-node/NodeFileSystem"
import { assert, describe, it, layer } from "@effect/vitest"
import {
  ConfigProvider,
  Context,
  Deferred,
  Duration,
  Effect,
  Exit,
  Fiber,
  FileSystem,
  Layer,
  Option,
  Queue,
  Redacted,
  Scope
} from "effect"
import { SqlClient } from "effect/sql"
import * as Net from "node:net"
import type { Duplex } from "node:stream"
import * as Database from "../src/Database.ts"
import { DatabaseInfo } from "../src/DatabaseInfo.ts"
import { backends } from "../src/testing.ts"
import { patience } from "../../../vitest.shared.ts"

/**
 * A session outside the pool whose transport the test can cut, as a crash
 * or a network failure would.
 */
const openDroppable = Effect.gen(function*() {
  const info = yield* DatabaseInfo
  const open = info.connection.stream ?? (() => {
    const url = new URL(Redacted.value(info.connection.url!))
    return Net.connect({ host: url.hostname, port: Number(url.port || 5432) })
  })
  let transport: Duplex | undefined
  const connection = yield* PgConnection.make({ ...info.connection, stream: () => (transport = open()) })
  return { connection, drop: () => transport!.destroy() }
})

// Every migration the package has, as `<id>_<name>`; the tests follow the list as it grows.
const allMigrations = Object.keys(migrations).sort()
const migrationKey = ([id, name]: readonly [number, string]) => `${String(id).padStart(4, "0")}_${name}`

for (const backend of backends()) {
  layer(backend.layer, { excludeTestServices: true })(`Database (${backend.name})`, (it) => {
    it.effect("applies the migrations", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const tables = yield* sql<{ tableName: string }>`
          SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`
        const names = tables.map((row) => row.tableName)
        for (const table of ["accounts", "api_keys", "effect_sql_migrations", "members", "rate_limit_windows", "workspaces"]) {
          assert.include(names, table)
        }
        const applied = yield* sql<{ migrationId: number; name: string }>`
          SELECT migration_id, name FROM effect_sql_migrations ORDER BY migration_id`
        assert.deepStrictEqual(applied.map((row) => `${String(row.migrationId).padStart(4, "0")}_${row.name}`), allMigrations)
      }))

    it.effect("reports its backend", () =>
      Effect.gen(function*() {
        const info = yield* DatabaseInfo
        assert.strictEqual(info.backend, backend.name === "pglite" ? "embedded" : "postgres")
        assert.strictEqual(Option.isSome(info.pglite), backend.name === "pglite")
        // Both come from a migrated template (packages/db/src/testing.ts).
        assert.deepStrictEqual(info.appliedMigrations, [])
        assert.deepStrictEqual(yield* Database.migrate, [])
      }))

    if (backend.name === "postgres") {
      it.effect("applies every migration, in order, to a new database on the server and says so", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const info = yield* DatabaseInfo
          const name = `herald_t_new_${process.pid}_${Date.now()}`
          const url = new URL(Redacted.value(info.connection.url!))
          url.pathname = `/${name}`
          yield* Effect.acquireRelease(
            sql.unsafe(`CREATE DATABASE ${name}`),
            () => Effect.orDie(sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
          )
          const applied = yield* Effect.map(DatabaseInfo, (fresh) => fresh.appliedMigrations.map(migrationKey)).pipe(
            Effect.provide(Database.layerUrl(url.toString()), { local: true })
          )
          assert.deepStrictEqual(applied, allMigrations)
        }).pipe(Effect.scoped))
    }

    it.effect("round-trips parameters of every common type, camelCase in code and snake_case in SQL", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const pg = yield* PgClient.PgClient
        yield* sql`CREATE TABLE typed (
          id text PRIMARY KEY, small_number integer, big_number bigint, is_on boolean, nothing text,
          happened_at timestamptz, document jsonb, raw_bytes bytea, tags text[], counts integer[])`
        const happenedAt = new Date("2024-02-29T12:34:56.789Z")
        const document = { snake_key: [1, "two", null], nested: { camelKey: true } }
        yield* sql`INSERT INTO typed ${
          sql.insert({
            id: "a'b\"c é ✓",
            smallNumber: -2147483648,
            bigNumber: 9007199254740993n,
            isOn: false,
            nothing: null,
            happenedAt,
            document: pg.json(document),
            rawBytes: new Uint8Array([0, 1, 254, 255]),
            tags: ["x", "y z"],
            counts: [1, 2, 3]
          })
        }`
        const rows = yield* sql`SELECT * FROM typed`
        assert.deepStrictEqual(rows, [{
          id: "a'b\"c é ✓",
          smallNumber: -2147483648,
          bigNumber: 9007199254740993n,
          isOn: false,
          nothing: null,
          happenedAt,
          document,
          rawBytes: new Uint8Array([0, 1, 254, 255]),
          tags: ["x", "y z"],
          counts: [1, 2, 3]
        }])
        const filtered = yield* sql<{ id: string }>`
          SELECT id FROM typed WHERE big_number = ${9007199254740993n} AND happened_at = ${happenedAt}
            AND raw_bytes = ${new Uint8Array([0, 1, 254, 255])} AND is_on = ${false}`
        assert.strictEqual(filtered.length, 1)
      }))

    it.effect("a rolled-back transaction leaves nothing behind", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE rollback_probe (id integer PRIMARY KEY)`
        const exit = yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`INSERT INTO rollback_probe VALUES (1), (2)`
          return yield* Effect.fail("abort" as const)
        })).pipe(Effect.exit)
        assert.isTrue(Exit.isFailure(exit))
        const rows = yield* sql`SELECT * FROM rollback_probe`
        assert.strictEqual(rows.length, 0)
      }))

    it.effect("nested transactions are savepoints: the inner failure is undone, the outer commits", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE savepoint_probe (label text)`
        yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`INSERT INTO savepoint_probe VALUES ('outer')`
          const inner = yield* sql.withTransaction(Effect.gen(function*() {
            yield* sql`INSERT INTO savepoint_probe VALUES ('inner')`
            return yield* Effect.fail("inner failed" as const)
          })).pipe(Effect.flip)
          assert.strictEqual(inner, "inner failed")
          yield* sql`INSERT INTO savepoint_probe VALUES ('after')`
        }))
        const rows = yield* sql<{ label: string }>`SELECT label FROM savepoint_probe ORDER BY label`
        assert.deepStrictEqual(rows.map((row) => row.label), ["after", "outer"])
      }))

    it.effect("concurrent queries and transactions keep to themselves", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE concurrency_probe (owner text, n integer)`
        const queries = Effect.forEach(
          Array.from({ length: 50 }, (_, index) => index),
          (index) => Effect.map(sql<{ value: number }>`SELECT ${index}::int AS value`, (rows) => rows[0]!.value),
          { concurrency: "unbounded" }
        )
        // Each writes, yields, writes again and checks it sees only its own rows;
        // one then fails. Sharing a session would commit or roll back both.
        const transaction = (owner: string, fail: boolean) =>
          sql.withTransaction(Effect.gen(function*() {
            for (let n = 1; n <= 5; n++) {
              yield* sql`INSERT INTO concurrency_probe VALUES (${owner}, ${n})`
              yield* Effect.sleep(Duration.millis(2))
              const seen = yield* sql<{ owner: string; count: bigint }>`
                SELECT owner, count(*) AS count FROM concurrency_probe GROUP BY owner ORDER BY owner`
              const mine = seen.find((row) => row.owner === owner)
              assert.strictEqual(mine?.count, BigInt(n))
            }
            if (fail) return yield* Effect.fail(`${owner} gave up`)
          })).pipe(Effect.exit)
        const [values, committed, failed] = yield* Effect.all([
          queries,
          transaction("committer", false),
          transaction("quitter", true)
        ], { concurrency: "unbounded" })
        assert.deepStrictEqual(values, Array.from({ length: 50 }, (_, index) => index))
        assert.isTrue(Exit.isSuccess(committed))
        assert.isTrue(Exit.isFailure(failed))
        const rows = yield* sql<{ owner: string; n: number }>`SELECT owner, n FROM concurrency_probe ORDER BY n`
        assert.deepStrictEqual(rows, [1, 2, 3, 4, 5].map((n) => ({ owner: "committer", n })))
      }))

    it.effect("SELECT ... FOR UPDATE SKIP LOCKED lets two transactions claim disjoint rows", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE jobs (id integer PRIMARY KEY, claimed_by text)`
        yield* sql`INSERT INTO jobs SELECT id, NULL FROM generate_series(1, 10) AS id`
        const claim = (worker: string) =>
          sql.withTransaction(Effect.gen(function*() {
            const claimed = yield* sql<{ id: number }>`
              UPDATE jobs SET claimed_by = ${worker} WHERE id IN (
                SELECT id FROM jobs WHERE claimed_by IS NULL ORDER BY id LIMIT 5 FOR UPDATE SKIP LOCKED
              ) RETURNING id`
            // Hold the row locks a while, so on a server the other claim runs meanwhile.
            yield* Effect.sleep(Duration.millis(50))
            return claimed.map((row) => row.id)
          }))
        const [first, second] = yield* Effect.all([claim("one"), claim("two")], { concurrency: 2 })
        assert.strictEqual(first.length, 5)
        assert.strictEqual(second.length, 5)
        assert.deepStrictEqual([...first, ...second].sort((a, b) => a - b), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
      }))

    it.effect("LISTEN / NOTIFY reaches listeners on other connections, by channel", () =>
      Effect.gen(function*() {
        const pg = yield* PgClient.PgClient
        const firstScope = yield* Scope.make()
        const first = yield* pg.listen("herald_probe").pipe(Scope.provide(firstScope))
        const second = yield* pg.listen("herald_probe")
        const other = yield* pg.listen("herald_other")
        yield* pg.notify("herald_probe", "hello")
        const take = (queue: Queue.Dequeue<PgConnection.Notification, unknown>) =>
          Queue.take(queue).pipe(Effect.timeout(Duration.millis(patience)))
        assert.deepStrictEqual(
          [(yield* take(first)).payload, (yield* take(second)).payload],
          ["hello", "hello"]
        )
        yield* pg.notify("herald_other", "elsewhere")
        assert.strictEqual((yield* take(other)).payload, "elsewhere")
        assert.strictEqual(yield* Queue.size(first), 0)
        assert.strictEqual(yield* Queue.size(second), 0)
        // The first listener stops (UNLISTEN): the second keeps hearing the channel.
        yield* Scope.close(firstScope, Exit.void)
        yield* pg.notify("herald_probe", "again")
        assert.strictEqual((yield* take(second)).payload, "again")
      }))

    it.effect("a listener forked before a run of queries LISTENs during them and hears what follows", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const pg = yield* PgClient.PgClient
        const listening = yield* Deferred.make<void>()
        const heard = yield* Deferred.make<string>()
        // As a service does at startup: it listens on a fiber of its own while the caller goes on.
        yield* Effect.forkScoped(Effect.scoped(Effect.gen(function*() {
          const queue = yield* pg.listen("herald_forked")
          yield* Deferred.succeed(listening, undefined)
          yield* Deferred.succeed(heard, (yield* Queue.take(queue)).payload)
        })))
        // Each query's answer arrives in a later turn of the event loop, so the forked fiber runs
        // meanwhile; a NOTIFY sent while its LISTEN still waits would reach nobody.
        let queries = 0
        while (!(yield* Deferred.isDone(listening)) && queries < 500) {
          yield* sql`SELECT 1`
          queries++
        }
        assert.isTrue(yield* Deferred.isDone(listening), `still not listening after ${queries} queries`)
        yield* pg.notify("herald_forked", "after the queries")
        assert.strictEqual(yield* Deferred.await(heard).pipe(Effect.timeout(Duration.millis(patience))), "after the queries")
      }).pipe(Effect.scoped))

    it.effect("a connection dropped inside a transaction is rolled back and others proceed", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE drop_probe (id integer PRIMARY KEY, value text)`
        yield* sql`INSERT INTO drop_probe VALUES (1, 'before')`
        const { connection, drop } = yield* openDroppable
        yield* connection.query("BEGIN")
        yield* connection.query("UPDATE drop_probe SET value = 'dropped' WHERE id = 1")
        yield* connection.query("INSERT INTO drop_probe VALUES (2, 'dropped')")
        // This update needs the row (server) or the session (PGlite) the dropped transaction holds.
        const waiting = yield* sql`UPDATE drop_probe SET value = 'after' WHERE id = 1`.pipe(Effect.forkChild)
        // A moment for the update to start waiting; started after the drop instead, it only goes at once.
        yield* Effect.sleep(Duration.millis(50))
        drop()
        yield* Fiber.join(waiting).pipe(Effect.timeout(Duration.millis(patience)))
        const rows = yield* sql<{ id: number; value: string }>`SELECT id, value FROM drop_probe ORDER BY id`
        assert.deepStrictEqual(rows, [{ id: 1, value: "after" }])
      }))
  })
}

describe("Database.layerEmbedded", () => {
  it.live("keeps its data in the data folder, which it holds for one process at a time", () =>
    Effect.gen(function*() {
      const fs = yield* FileSystem.FileSystem
      const dataDir = yield* fs.makeTempDirectoryScoped({ prefix: "herald-db-test-" })
      const embedded = Database.layerEmbedded({ dataDir })
      yield* Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(embedded)
        assert.deepStrictEqual(Context.get(context, DatabaseInfo).appliedMigrations.map(migrationKey), allMigrations)
        const sql = Context.get(context, SqlClient.SqlClient)
        yield* sql`INSERT INTO workspaces ${sql.insert({ id: "ws_1", name: "Kept" })}`
        const busy = yield* Layer.build(embedded).pipe(Effect.scoped, Effect.flip)
        assert.strictEqual(busy._tag, "DataDirBusy")
        assert.include(busy.message, String(process.pid))
      }))
      assert.isFalse(yield* fs.exists(`${dataDir}/herald.lock`))
      // Reopened the way the server starts: from the environment, without DATABASE_URL.
      const fromEnvironment = Database.layerConfig.pipe(
        Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: { HERALD_DATA_DIR: dataDir } })))
      )
      const rows = yield* Effect.scoped(Effect.gen(function*() {
        const context = yield* Layer.build(fromEnvironment)
        const info = Context.get(context, DatabaseInfo)
        assert.strictEqual(info.backend, "embedded")
        assert.strictEqual(Option.getOrThrow(info.dataDirLock).dataDir, dataDir)
        assert.deepStrictEqual(info.appliedMigrations, [])
        const sql = Context.get(context, SqlClient.SqlClient)
        return yield* sql<{ id: string; name: string }>`SELECT id, name FROM workspaces`
      }))
      assert.deepStrictEqual(rows, [{ id: "ws_1", name: "Kept" }])
    }).pipe(Effect.provide(NodeFileSystem.layer)))
})
