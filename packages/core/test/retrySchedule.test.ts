import { assert, describe, it } from "@effect/vitest"
import { Effect, Random } from "effect"
import * as retrySchedule from "../src/internal/retrySchedule.ts"

const schedule = { baseDelayMs: 1_000, maxDelayMs: 60_000, retryForMs: 15 * 60_000 }

describe("retrySchedule", () => {
  it.effect("waits a random time below the capped doubling (full jitter), drawn from the Random service", () =>
    Effect.gen(function*() {
      const live = yield* Random.Random
      const drawing = (value: number): typeof live => ({ ...live, nextDoubleUnsafe: () => value })
      const highest = yield* Effect.forEach([1, 2, 3, 7, 8, 30], (failures) =>
        Effect.provideService(retrySchedule.delayMs(schedule, failures), Random.Random, drawing(0.999999)))
      assert.deepStrictEqual(highest, [999, 1_999, 3_999, 59_999, 59_999, 59_999])
      const lowest = yield* Effect.provideService(retrySchedule.delayMs(schedule, 5), Random.Random, drawing(0))
      assert.strictEqual(lowest, 1)
      // Seeded: the same waits every run, all within their caps.
      const seeded = () => Effect.forEach([1, 2, 3, 4, 5, 6, 7], (failures) => retrySchedule.delayMs(schedule, failures)).pipe(Random.withSeed(30))
      const first = yield* seeded()
      assert.deepStrictEqual(yield* seeded(), first)
      first.forEach((wait, index) => assert.isAtMost(wait, Math.min(60_000, 1_000 * 2 ** index)))
    }))

  it("gives up once the retry time since the first passing fault has passed, and not before", () => {
    const since = 1_000_000
    assert.isFalse(retrySchedule.spent(schedule, since, since + 15 * 60_000 - 1))
    assert.isTrue(retrySchedule.spent(schedule, since, since + 15 * 60_000))
  })
})
