import { Effect, Random } from "effect"

/**
 * When a target tries again after a passing fault (a 5xx, a dropped connection, a timeout, a look that
 * failed in passing), and when it stops: exponential backoff with full jitter (a random wait between 0 and
 * the capped doubling, drawn from Effect's `Random` so tests choose it), for as long as `retryForMs` since
 * the first passing fault of the run. Long enough to outlast a deploy or a load balancer's restart; the
 * start is stored on the target (`faulting_since`), so a restart goes on with the same deadline.
 */
export interface Schedule {
  readonly baseDelayMs: number
  readonly maxDelayMs: number
  readonly retryForMs: number
}

/** The wait before the `failures`-th try again (1-based): full jitter over the capped doubling. */
export const delayMs = (schedule: Schedule, failures: number) =>
  Effect.map(Random.next, (draw) => {
    const cap = Math.min(schedule.maxDelayMs, schedule.baseDelayMs * 2 ** Math.max(0, failures - 1))
    return Math.max(1, Math.floor(draw * cap))
  })

/** Whether the run has faulted for its whole time: `since` is its first passing fault. */
export const spent = (schedule: Schedule, since: number, now: number) => now - since >= schedule.retryForMs
