import { assert, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { backends } from "@herald/db/testing"
import { RateLimiter } from "../src/index.ts"

for (const backend of backends()) {
  layer(backend.layer, { timeout: 120_000 })(`RateLimiter on ${backend.name}`, (it) => {
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

    it.effect("shares counts between processes through the database", () =>
      Effect.gen(function*() {
        // Two limiters over one database stand for two Herald processes.
        const first = yield* RateLimiter.RateLimiter.make({ limitPerMinute: 5, syncInterval: Duration.hours(1) })
        const second = yield* RateLimiter.RateLimiter.make({ limitPerMinute: 5, syncInterval: Duration.hours(1) })
        for (let index = 0; index < 3; index++) assert.isTrue((yield* first.consume("key:shared")).allowed)
        yield* first.sync
        assert.isTrue((yield* second.consume("key:shared")).allowed)
        yield* second.sync
        // The second process now knows of the first's three: one more is allowed, then no more.
        assert.isTrue((yield* second.consume("key:shared")).allowed)
        assert.isFalse((yield* second.consume("key:shared")).allowed)
        yield* second.sync
        yield* first.sync
        assert.isFalse((yield* first.consume("key:shared")).allowed)
      }).pipe(Effect.scoped))
  })
}

