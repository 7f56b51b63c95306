import { Effect } from "effect"
import { patience } from "../vitest.shared.ts"

/**
 * What `look` gives once it gives something (neither `undefined` nor `false`), looked at again every `everyMs`
 * until then: how a test waits for a condition rather than for a time. A loaded machine makes the wait
 * longer, never the verdict different; after `patience` (vitest.shared.ts) the test fails saying what did
 * not come, and what `describe` says of the state it last saw. The pauses are the wall clock's, whatever
 * Clock the test runs on, so a test on `TestClock` can wait for the server's state too.
 */
export const eventually = <A, E = never, R = never>(
  what: string,
  look: Effect.Effect<A, E, R> | (() => A),
  options: { readonly everyMs?: number; readonly describe?: () => string } = {}
): Effect.Effect<Exclude<A, undefined | false>, E, R> =>
  Effect.gen(function*() {
    const step = Effect.isEffect(look) ? look : Effect.sync(look)
    const until = Date.now() + patience
    while (true) {
      const value = yield* step
      if (value !== undefined && value !== false) return value as Exclude<A, undefined | false>
      if (Date.now() > until) {
        const seen = options.describe === undefined ? "" : `: ${options.describe()}`
        return yield* Effect.die(new Error(`still waiting for ${what} after ${patience / 1000} s${seen}`))
      }
      yield* pause(options.everyMs ?? 20)
    }
  })

/** A pause on the wall clock (not the Clock service: a `TestClock` would never end it). */
export const pause = (ms: number) => Effect.promise(() => new Promise<void>((resolve) => setTimeout(resolve, ms)))

/**
 * The same wait for tests written with promises (the command line's): asks `look` every quarter of a second
 * until `done` holds of its answer, for at most `patience`, and resolves with the last answer either way, for
 * the test to assert on.
 */
export const poll = async <A>(look: () => Promise<A>, done: (answer: A) => boolean): Promise<A> => {
  const until = Date.now() + patience
  let answer = await look()
  while (!done(answer) && Date.now() < until) {
    await new Promise((wait) => setTimeout(wait, 250))
    answer = await look()
  }
  return answer
}
