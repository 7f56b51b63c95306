import { Duration, Effect, Layer, Ref, Schedule } from "effect"
import { performance } from "node:perf_hooks"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"

/**
 * Gives memory back once the process has gone quiet.
 *
 * V8 grows its young generation (up to 2 × 64 MB with Node 24 on this kind of machine) while a process
 * allocates fast, as Herald does while it starts (some 1,400 modules, migrations, the cluster) and under a
 * burst of requests, and keeps it while the process then idles: an idle server on PostgreSQL stayed at about
 * 300 MB resident, over 100 MB of it an empty young generation. A young generation kept small for good
 * (`--max-semi-space-size`) would cost CPU in every busy spell, and would need a flag on every command that
 * starts Herald; instead, when the heap has grown by `grownBy` since the last time and the event loop has then
 * been quiet (under `quietBelow` busy) for `quietRounds` rounds of `every`, one memory-reducing collection
 * (V8's last-resort one: full collections that shrink the young generation and release V8's pooled pages)
 * brings it back. Measured in docs/decisions/0055-idle-memory.md.
 */
export interface Options {
  readonly every: Duration.Duration
  readonly quietBelow: number
  readonly quietRounds: number
  readonly grownBy: number
}

export const defaults: Options = {
  every: Duration.seconds(5),
  // An idle Herald keeps its event loop 1 to 3 % busy (cluster polls, inbox and webhook rounds).
  quietBelow: 0.1,
  quietRounds: 3,
  grownBy: 32 * 1024 * 1024
}

/** One round's reading: how busy the event loop was since the last, and V8's heap size (`heapTotal`). */
export interface Reading {
  readonly utilization: number
  readonly heapTotal: number
}

/** Quiet rounds in a row, and the heap's size after the last reduction (0 before the first). */
export interface Watch {
  readonly quietRounds: number
  readonly baseline: number
}

export const initial: Watch = { quietRounds: 0, baseline: 0 }

/**
 * Whether this round reduces, and the watch after it. A busy round starts the count of quiet rounds again;
 * a reduction waits for enough quiet rounds and for the heap to have grown since the last one, so a process
 * that stays idle is collected once, not every round.
 */
export const decide = (watch: Watch, reading: Reading, options: Options = defaults) => {
  const quietRounds = reading.utilization < options.quietBelow ? watch.quietRounds + 1 : 0
  const reduce = quietRounds >= options.quietRounds && reading.heapTotal > watch.baseline + options.grownBy
  return { reduce, watch: { quietRounds: reduce ? 0 : quietRounds, baseline: watch.baseline } }
}

/**
 * V8's memory-reducing collection. Node offers it only through `gc`, which `--expose-gc` puts into contexts
 * made after the flag is set; setting it here keeps it off the command line of every way to start Herald.
 */
const memoryReducingCollection = Effect.sync(() => {
  setFlagsFromString("--expose-gc")
  const collect = runInNewContext("gc") as (options: object) => void
  return Effect.sync(() => collect({ type: "major", execution: "sync", flavor: "last-resort" }))
})

const heapTotal = () => process.memoryUsage().heapTotal

/** Watches the process every `options.every` and reduces its memory as `decide` says. */
export const layer = (options: Options = defaults): Layer.Layer<never> =>
  Layer.effectDiscard(Effect.gen(function*() {
    const collect = yield* memoryReducingCollection
    const watch = yield* Ref.make(initial)
    const last = yield* Ref.make(performance.eventLoopUtilization())
    const round = Effect.gen(function*() {
      const now = performance.eventLoopUtilization()
      const utilization = performance.eventLoopUtilization(now, yield* Ref.getAndSet(last, now)).utilization
      const { reduce, watch: next } = decide(yield* Ref.get(watch), { utilization, heapTotal: heapTotal() }, options)
      if (!reduce) return yield* Ref.set(watch, next)
      const before = process.memoryUsage().rss
      yield* collect
      yield* Ref.set(watch, { ...next, baseline: heapTotal() })
      // The collection's own time is not the loop's next round of work.
      yield* Ref.set(last, performance.eventLoopUtilization())
      yield* Effect.logDebug("idle: memory given back").pipe(
        Effect.annotateLogs({ residentMbBefore: megabytes(before), residentMbAfter: megabytes(process.memoryUsage().rss) })
      )
    })
    yield* Effect.forkScoped(Effect.repeat(round, Schedule.spaced(options.every)))
  }))

const megabytes = (bytes: number) => Math.round(bytes / 1024 / 1024)
