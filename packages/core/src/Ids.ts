import { Clock, Effect } from "effect"
import { makeId } from "./internal/random.ts"

/** A fresh id with the given readable prefix (`ws`, `key`, `acc`, ...). */
export const make = <Prefix extends string>(prefix: Prefix): Effect.Effect<string> =>
  Effect.map(Clock.currentTimeMillis, (now) => makeId(prefix, now))
