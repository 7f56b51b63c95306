import { Effect } from "effect"
import { pause } from "../../../testing/eventually.ts"

// Herald counts against its limits in fixed windows of the wall clock (a minute for requests, RateLimiter;
// 15 minutes for sign-in attempts, decision 0021). A test that makes the requests a limit allows and expects
// the next one refused needs them all in one window: a window's end among them starts the count again, and
// it comes among them the more often the longer they take, so the slower the machine.

/** When the current window has less than `needMs` left, waits for the next one to begin. */
const roomIn = (windowMs: number, needMs: number) =>
  Effect.suspend(() => {
    const left = windowMs - (Date.now() % windowMs)
    return left >= needMs ? Effect.void : pause(left + 20)
  })

/**
 * Room for a test's few requests in the request limit's window (a minute): five seconds of it, fifty times
 * what they take, or the next window.
 */
export const roomInMinute = roomIn(60_000, 5_000)

/** Room for a test's sign-ins in the sign-in limits' window (15 minutes): 20 seconds of it, or the next. */
export const roomInSignInWindow = roomIn(15 * 60_000, 20_000)
