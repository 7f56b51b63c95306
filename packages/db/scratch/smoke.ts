import { PGlite } from "@electric-sql/pglite"
import * as PgClient from "@effect/sql-pg/PgClient"
import { Effect, Layer, Stream, Queue, Fiber } from "effect"
import * as Reactivity from "effect/reactivity/Reactivity"
import * as PgliteBridge from "../src/PgliteBridge.ts"

const program = Effect.gen(function*() {
  const pglite = yield* Effect.acquireRelease(Effect.promise(() => PGlite.create()), (pg) => Effect.promise(() => pg.close()))
  const bridge = yield* PgliteBridge.make(pglite)
  const sql = yield* PgClient.make({ stream: bridge.connect, username: "postgres" })
  const rows = yield* sql`SELECT 1 AS one, now() AS ts, 42::int8 AS big, '\\x0102'::bytea AS bin`
  console.log(rows)
  yield* sql`CREATE TABLE t (id int primary key, v text)`
  yield* sql`INSERT INTO t ${sql.insert({ id: 1, v: "a" })}`
  console.log(yield* sql`SELECT * FROM t`)
  // listen
  const queue = yield* sql.listen("chan")
  yield* sql.notify("chan", "hello")
  const n = yield* Queue.take(queue)
  console.log("notification", n)
  // timing
  const start = performance.now()
  for (let i = 0; i < 2000; i++) yield* sql`SELECT ${i}::int AS i`
  console.log("per query us", ((performance.now() - start) / 2000) * 1000)
  const start2 = performance.now()
  yield* Effect.forEach(Array.from({ length: 2000 }, (_, i) => i), (i) => sql`SELECT ${i}::int AS i`, { concurrency: 50 })
  console.log("concurrent per query us", ((performance.now() - start2) / 2000) * 1000)
})
Effect.runPromise(Effect.scoped(program).pipe(Effect.provide(Reactivity.layer))).then(() => console.log("done"), (e) => { console.error("FAILED", e); process.exit(1) })
