import { assert, describe, it } from "@effect/vitest"
import { Duration, Effect, Layer } from "effect"
import { getHeapSpaceStatistics } from "node:v8"
import * as IdleMemory from "../src/IdleMemory.ts"
import { eventually } from "../../../testing/eventually.ts"

// An idle server gives back the memory a busy spell made V8 take (decision 0055): once the process is quiet,
// and once per growth of the heap, not every round while it stays quiet.

const options: IdleMemory.Options = { ...IdleMemory.defaults, quietRounds: 3 }
const quiet = (heapTotal: number): IdleMemory.Reading => ({ utilization: 0.01, heapTotal })
const busy = (heapTotal: number): IdleMemory.Reading => ({ utilization: 0.5, heapTotal })
const megabytes = (count: number) => count * 1024 * 1024

/** Feeds readings to `decide`, the way the layer does, and says which rounds reduced. */
const reductions = (readings: ReadonlyArray<IdleMemory.Reading>) => {
  let watch = IdleMemory.initial
  const reduced: Array<number> = []
  readings.forEach((reading, round) => {
    const decision = IdleMemory.decide(watch, reading, options)
    // After a reduction the layer takes the heap's new size as the baseline.
    watch = decision.reduce ? { ...decision.watch, baseline: megabytes(70) } : decision.watch
    if (decision.reduce) reduced.push(round)
  })
  return reduced
}

const youngGeneration = () => getHeapSpaceStatistics().find((space) => space.space_name === "new_space")!.physical_space_size

/** Allocates short-lived objects fast, as starting or a burst of requests does, so V8 grows its young generation. */
const allocateFast = () => {
  let kept: Array<{ readonly index: number; readonly text: string }> = []
  for (let index = 0; index < 3_000_000; index++) {
    kept.push({ index, text: `item ${index}` })
    if (kept.length > 200_000) kept = []
  }
  return kept.length
}

describe("IdleMemory", () => {
  it("reduces after the third quiet round following start-up, then not again while the process stays quiet", () => {
    assert.deepStrictEqual(reductions([busy(megabytes(200)), quiet(megabytes(200)), quiet(megabytes(200)), quiet(megabytes(200))]), [3])
    assert.deepStrictEqual(reductions([...Array.from({ length: 4 }, () => quiet(megabytes(200))), ...Array.from({ length: 10 }, () => quiet(megabytes(75)))]), [2])
  })

  it("a busy round starts the count of quiet rounds again", () => {
    assert.deepStrictEqual(reductions([quiet(megabytes(200)), quiet(megabytes(200)), busy(megabytes(200)), quiet(megabytes(200)), quiet(megabytes(200))]), [])
  })

  it("reduces again only once the heap has grown by 32 MB since the last reduction", () => {
    const afterFirst = [quiet(megabytes(200)), quiet(megabytes(200)), quiet(megabytes(200))]
    assert.deepStrictEqual(reductions([...afterFirst, busy(megabytes(90)), quiet(megabytes(90)), quiet(megabytes(90)), quiet(megabytes(90))]), [2])
    assert.deepStrictEqual(reductions([...afterFirst, busy(megabytes(150)), quiet(megabytes(150)), quiet(megabytes(150)), quiet(megabytes(150))]), [2, 6])
  })

  it.live("gives back a young generation that a burst of allocation grew", () =>
    Effect.gen(function*() {
      allocateFast()
      const grown = youngGeneration()
      assert.isAbove(grown, megabytes(32), "the burst grew the young generation")
      // Two quiet rounds of 50 ms, then the collection: however long the rounds take to come on a loaded machine.
      yield* eventually("the young generation given back", () => youngGeneration() < megabytes(16), {
        describe: () => `it stayed at ${Math.round(youngGeneration() / 1024 / 1024)} MB`
      }).pipe(
        Effect.provide(IdleMemory.layer({ every: Duration.millis(50), quietBelow: 1.01, quietRounds: 2, grownBy: 0 }).pipe(Layer.fresh))
      )
    }))
})
