import { Context, Duration, Effect, Layer, Queue, Random, Ref } from "effect"
import { SqlClient } from "effect/sql"
import * as PgClient from "@effect/sql-pg/PgClient"
import { backends } from "../src/testing.ts"

const program = Effect.gen(function*() {
  const context = yield* Layer.build(backends()[0]!.layer)
  const sql = Context.get(context, SqlClient.SqlClient)
  const pg = Context.get(context, PgClient.PgClient)
  yield* sql`CREATE TABLE counter (id int primary key, n int)`
  yield* sql`INSERT INTO counter VALUES (1, 0)`
  yield* sql`CREATE TABLE log (worker int, i int)`
  const committed = yield* Ref.make(0)
  const received = yield* Ref.make(0)
  const queue = yield* pg.listen("stress")
  yield* Effect.forkScoped(Effect.forever(Effect.andThen(Queue.take(queue), Ref.update(received, (n) => n + 1))))
  const worker = (id: number) => Effect.gen(function*() {
    for (let i = 0; i < 60; i++) {
      const kind = yield* Random.nextIntBetween(0, 6)
      if (kind === 0) {
        const [row] = yield* sql<{ v: number }>`SELECT ${id * 1000 + i}::int AS v`
        if (row!.v !== id * 1000 + i) return yield* Effect.die(`wrong answer ${row!.v}`)
      } else if (kind === 1) {
        const exit = yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`UPDATE counter SET n = n + 1 WHERE id = 1`
          yield* sql`INSERT INTO log VALUES (${id}, ${i})`
          if (i % 3 === 0) return yield* Effect.fail("nope")
        })).pipe(Effect.exit)
        if (exit._tag === "Success") yield* Ref.update(committed, (n) => n + 1)
      } else if (kind === 2) {
        // interrupted mid-flight
        yield* sql`SELECT pg_sleep(0.002)`.pipe(Effect.timeout(Duration.millis(1)), Effect.ignore)
      } else if (kind === 3) {
        yield* pg.notify("stress", `${id}:${i}`)
      } else if (kind === 4) {
        // interrupted transaction
        yield* sql.withTransaction(Effect.andThen(sql`UPDATE counter SET n = n + 1000 WHERE id = 1`, Effect.sleep(Duration.millis(3)))).pipe(Effect.timeout(Duration.millis(1)), Effect.ignore)
      } else {
        yield* Effect.scoped(Effect.andThen(pg.listen(`w${id}`), pg.notify(`w${id}`, "x")))
      }
    }
  })
  const start = performance.now()
  yield* Effect.forEach(Array.from({ length: 40 }, (_, i) => i), worker, { concurrency: "unbounded" }).pipe(Effect.timeout(Duration.seconds(120)))
  const [row] = yield* sql<{ n: number }>`SELECT n FROM counter`
  const [logged] = yield* sql<{ c: bigint }>`SELECT count(*) AS c FROM log`
  yield* Effect.sleep(100)
  const tx = yield* Ref.get(committed)
  console.log("elapsed", (performance.now() - start).toFixed(0), "counter", row!.n, "committed", tx, "logged", logged!.c, "notifications", yield* Ref.get(received))
  console.log(row!.n % 1000 === tx && Number(logged!.c) === tx ? "CONSISTENT" : "INCONSISTENT")
  const [stmts] = yield* sql<{ c: bigint }>`SELECT count(*) AS c FROM pg_prepared_statements`
  console.log("prepared statements in session", stmts!.c)
})
Effect.runPromise(Effect.scoped(program)).then(() => console.log("done"), (e) => { console.error("FAILED", e); process.exit(1) })
