import { assert, layer } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { Duration, Effect, Layer } from "effect"
import { Sharding } from "effect/cluster"
import { Reactivity } from "effect/reactivity"
import { SqlClient } from "effect/sql"
import { MigrationState } from "@herald/db"
import { backends } from "@herald/db/testing"
import { execFileSync } from "node:child_process"
import { isReady, Readiness } from "../src/Readiness.ts"
import { eventually } from "../../../testing/eventually.ts"
import { baseUrl, examplePackage, freePort, request, serverLayer } from "./harness.ts"

// `/ready` says whether a process should get traffic; `/health` only whether it is alive. A load balancer
// that sends work to a process whose schema is not its own, or a worker that holds no shard, loses it.

const ready = Effect.flatMap(baseUrl, (base) => request(`${base}/ready`))

// The single runner takes its shards a moment after the server listens (and again after the database
// comes back).
const untilReady = eventually("/ready to answer 200", Effect.map(ready, (answer) => answer.status === 200 && answer), { everyMs: 100 })

const latest = Math.max(...MigrationState.expectedIds)

// Changes the migrations' table for one test, and puts it back whatever happens.
const withMigrationRows = <A, E, R>(change: "remove latest" | "add unknown", effect: Effect.Effect<A, E, R>) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    change === "remove latest"
      ? Effect.flatMap(
        sql<{ readonly name: string; readonly createdAt: Date }>`DELETE FROM effect_sql_migrations WHERE migration_id = ${latest} RETURNING name, created_at`,
        ([row]) =>
          effect.pipe(Effect.ensuring(Effect.orDie(
            sql`INSERT INTO effect_sql_migrations (migration_id, name, created_at) VALUES (${latest}, ${row!.name}, ${row!.createdAt})`
          )))
      )
      : sql`INSERT INTO effect_sql_migrations (migration_id, name) VALUES (9999, 'from_a_newer_release')`.pipe(
        Effect.andThen(effect),
        Effect.ensuring(Effect.orDie(sql`DELETE FROM effect_sql_migrations WHERE migration_id = 9999`))
      )).pipe(Effect.orDie)

layer(serverLayer(), { excludeTestServices: true })("GET /ready", (it) => {
  it.effect("answers 200 with every check ok once the runner holds its shards", () =>
    Effect.gen(function*() {
      const answer = yield* untilReady
      assert.deepStrictEqual(answer.body, { status: "ready", checks: { database: "ok", migrations: "ok", shards: "ok" } })
    }))

  it.effect("answers 503 migrations behind when one of the code's migrations is not applied, while /health stays 200", () =>
    Effect.gen(function*() {
      yield* untilReady
      const [answer, health] = yield* withMigrationRows("remove latest", Effect.all([
        ready,
        Effect.flatMap(baseUrl, (base) => request(`${base}/health`))
      ]))
      assert.strictEqual(answer.status, 503)
      assert.deepStrictEqual(answer.body, { status: "not_ready", checks: { database: "ok", migrations: "behind", shards: "ok" } })
      assert.strictEqual(health.status, 200)
      assert.strictEqual((yield* ready).status, 200)
    }))

  it.effect("answers 503 migrations ahead when the database has a migration this release does not know", () =>
    Effect.gen(function*() {
      yield* untilReady
      const answer = yield* withMigrationRows("add unknown", ready)
      assert.strictEqual(answer.status, 503)
      assert.deepStrictEqual(answer.body, { status: "not_ready", checks: { database: "ok", migrations: "ahead", shards: "ok" } })
    }))

  // The cluster's own state and an unreachable database cannot be staged through the running server, so
  // these build the checks over stand-ins: a runner that holds no shard, a database nobody answers at.
  const holdsNothing = Layer.succeed(Sharding.Sharding, { hasShardId: () => false } as unknown as Sharding.Sharding["Service"])

  it.effect("a worker whose runner holds no shard is not ready: shards no_shards", () =>
    Effect.gen(function*() {
      const checks = yield* Effect.flatMap(Readiness, (readiness) => readiness.check).pipe(
        Effect.provide(Readiness.layer({ runsWorkers: true }).pipe(Layer.provide(holdsNothing)))
      )
      assert.deepStrictEqual(checks, { database: "ok", migrations: "ok", shards: "no_shards" })
      assert.isFalse(isReady(checks))
    }))

  it.effect("an api process runs no entities: shards not_applicable, and ready", () =>
    Effect.gen(function*() {
      const checks = yield* Effect.flatMap(Readiness, (readiness) => readiness.check).pipe(
        Effect.provide(Readiness.layer({ runsWorkers: false }).pipe(Layer.provide(holdsNothing)))
      )
      assert.deepStrictEqual(checks, { database: "ok", migrations: "ok", shards: "not_applicable" })
      assert.isTrue(isReady(checks))
    }))

  it.effect("a database that does not answer: database unreachable, migrations unknown", () =>
    Effect.gen(function*() {
      const port = yield* Effect.promise(freePort)
      const unreachable = Layer.effect(SqlClient.SqlClient, PgClient.make({
        host: "127.0.0.1",
        port,
        database: "nothing_here",
        username: "postgres",
        connectTimeout: Duration.seconds(1)
      })).pipe(Layer.provide(Reactivity.layer))
      const checks = yield* Effect.flatMap(Readiness, (readiness) => readiness.check).pipe(
        Effect.provide(Readiness.layer({ runsWorkers: true }).pipe(Layer.provide(Layer.merge(unreachable, holdsNothing))))
      )
      assert.deepStrictEqual(checks, { database: "unreachable", migrations: "unknown", shards: "no_shards" })
      assert.isFalse(isReady(checks))
    }))
})

// On a PostgreSQL server the database can really go away under a running server: connections to it are
// refused (for superusers too) and the open ones ended, then allowed again.
const postgres = backends().find((backend) => backend.name === "postgres")
const adminUrl = process.env["HERALD_TEST_DATABASE_URL"] ?? ""
const psql = (query: string) => execFileSync("psql", [adminUrl, "-Atc", query], { encoding: "utf8" })

if (postgres !== undefined) {
  layer(serverLayer({}, [examplePackage], postgres), { excludeTestServices: true })("GET /ready on PostgreSQL", (it) => {
    it.effect("answers 503 database unreachable while the database refuses connections, and 200 once it is back", () =>
      Effect.gen(function*() {
        yield* untilReady
        const sql = yield* SqlClient.SqlClient
        const [row] = yield* Effect.orDie(sql<{ readonly name: string }>`SELECT current_database() AS name`)
        const name = row!.name
        const refuse = Effect.sync(() => {
          psql(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`)
          psql(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`)
        })
        const allow = Effect.sync(() => psql(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`))
        const [answer, health] = yield* refuse.pipe(
          Effect.andThen(Effect.all([ready, Effect.flatMap(baseUrl, (base) => request(`${base}/health`))])),
          Effect.ensuring(allow)
        )
        assert.strictEqual(answer.status, 503)
        assert.strictEqual(answer.body.status, "not_ready")
        assert.strictEqual(answer.body.checks.database, "unreachable")
        assert.strictEqual(answer.body.checks.migrations, "unknown")
        assert.strictEqual(health.status, 503)
        assert.deepStrictEqual((yield* untilReady).body.checks, { database: "ok", migrations: "ok", shards: "ok" })
      }))
  })
}
