import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { SqlClient, Statement } from "effect/sql"
import { backends } from "@herald/db/testing"
import { eventually } from "../../../testing/eventually.ts"
import { RateLimiter } from "../src/index.ts"

/** `count` requests at once, spread in turn over the limiters, as a burst reaches several processes. */
const burst = (limiters: ReadonlyArray<RateLimiter.RateLimiter["Service"]>, subject: string, count: number) =>
  Effect.forEach(
    Array.from({ length: count }, (_, index) => limiters[index % limiters.length]!),
    (limiter) => limiter.consume(subject),
    { concurrency: "unbounded" }
  )


for (const backend of backends()) {
  layer(backend.layer)(`RateLimiter on ${backend.name}`, (it) => {
    it.effect("admits exactly the limit per subject per minute, then says when to come back", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter.RateLimiter.make({ limitPerMinute: 3 })
        const decisions = []
        for (let index = 0; index < 4; index++) decisions.push(yield* limiter.consume("key:a"))
        assert.deepStrictEqual(decisions.map((decision) => decision.allowed), [true, true, true, false])
        assert.deepStrictEqual(decisions.map((decision) => decision.remaining), [2, 1, 0, 0])
        const last = decisions[3]!
        assert.isAtLeast(last.resetSeconds, 1)
        assert.isAtMost(last.resetSeconds, 60)
        assert.isTrue((yield* limiter.consume("key:b")).allowed)
      }).pipe(Effect.scoped))

    it.effect("holds the limit exactly under a burst shared by two processes, and counts in the database", () =>
      Effect.gen(function*() {
        // Two limiters over one database stand for two Herald processes on one PostgreSQL.
        const first = yield* RateLimiter.RateLimiter.make({ limitPerMinute: 120, shared: true })
        const second = yield* RateLimiter.RateLimiter.make({ limitPerMinute: 120, shared: true })
        // Both processes serve part of the window (each takes its first permits before the burst, so which one
        // is quicker in the burst cannot decide it), and together they admit exactly the limit.
        assert.isTrue((yield* first.consume("key:burst")).allowed)
        assert.isTrue((yield* second.consume("key:burst")).allowed)
        const decisions = yield* burst([first, second], "key:burst", 298)
        assert.strictEqual(decisions.filter((decision) => decision.allowed).length, 118)
        for (const decision of decisions.filter((decision) => !decision.allowed)) {
          assert.strictEqual(decision.remaining, 0)
        }
        // Neither admits more once the window is full.
        assert.isFalse((yield* first.consume("key:burst")).allowed)
        assert.isFalse((yield* second.consume("key:burst")).allowed)
        // A third process starting now learns of the full window from the database, without admitting one more.
        const third = yield* RateLimiter.RateLimiter.make({ limitPerMinute: 120, shared: true })
        assert.isFalse((yield* third.consume("key:burst")).allowed)
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ readonly count: number }>`SELECT count FROM rate_limit_windows WHERE subject = 'key:burst'`
        assert.isAtLeast(Number(rows[0]!.count), 120)
      }).pipe(Effect.scoped))

    it.effect("tells each admitted request of a burst in one process how many are left, exactly", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter.RateLimiter.make({ limitPerMinute: 120, shared: true })
        const decisions = yield* burst([limiter], "key:single", 300)
        const remaining = decisions.filter((decision) => decision.allowed).map((decision) => decision.remaining)
        assert.deepStrictEqual(remaining.sort((a, b) => b - a), Array.from({ length: 120 }, (_, index) => 119 - index))
      }).pipe(Effect.scoped))

    it.effect("writes nothing to the database while no request comes, and its last rows are removed", () =>
      Effect.gen(function*() {
        const statements: Array<string> = []
        const counted = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
          Effect.provideService(effect, Statement.CurrentTransformer, (statement) =>
            Effect.sync(() => {
              statements.push(statement.compile()[0].trim().split(/\s+/).slice(0, 3).join(" "))
              return statement
            }))
        const limiter = yield* counted(RateLimiter.RateLimiter.make({ limitPerMinute: 120, shared: true }))
        // An idle process: minutes pass without a request.
        yield* TestClock.adjust("5 minutes")
        assert.deepStrictEqual(statements, [])
        // Three requests in one window: one block is taken for them.
        for (let index = 0; index < 3; index++) assert.isTrue((yield* counted(limiter.consume("key:idle"))).allowed)
        assert.deepStrictEqual(statements, ["INSERT INTO rate_limit_windows"])
        // The window's row is removed once it is old; after that, quiet again. Minute by minute: the prune
        // writes in the three minutes after the window opened (its row goes in the third), then nothing. Each
        // minute goes on once that minute's prune has reached the database and a statement of the test's own
        // has come back behind it, so the prune is waiting for its next minute however slow the database.
        const sql = yield* SqlClient.SqlClient
        for (let minute = 1; minute <= 4; minute++) {
          const before = statements.length
          yield* TestClock.adjust("1 minute")
          if (minute <= 3) yield* eventually(`the prune of minute ${minute}`, () => statements.length > before)
          yield* sql`SELECT 1`
        }
        yield* eventually(
          "the old window's row removed",
          Effect.map(sql`SELECT 1 FROM rate_limit_windows WHERE subject = 'key:idle'`, (rows) => rows.length === 0)
        )
        const afterCleanUp = statements.length
        // Quiet: the prune writes nothing, and so runs at once each minute.
        yield* TestClock.adjust("10 minutes")
        assert.strictEqual(statements.length, afterCleanUp, statements.join("\n"))
      }).pipe(Effect.scoped))

    it.effect("a window of a large limit is taken in blocks, not one query per request", () =>
      Effect.gen(function*() {
        const limiter = yield* RateLimiter.RateLimiter.make({ limitPerMinute: 1_000_000, shared: true })
        const decisions = yield* burst([limiter], "key:large", 1_000)
        assert.isTrue(decisions.every((decision) => decision.allowed))
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ readonly count: number }>`SELECT count FROM rate_limit_windows WHERE subject = 'key:large'`
        // Taken ahead in blocks of 50 at most: never less than what was admitted, never far beyond it.
        assert.isAtLeast(Number(rows[0]!.count), 1_000)
        assert.isAtMost(Number(rows[0]!.count), 1_100)
      }).pipe(Effect.scoped))
  })
}
