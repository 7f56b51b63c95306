import type { Answer } from "./WebhookHttp.ts"

// What an ended webhook attempt leads to, as data (docs/webhooks.md, "Delivery"; decision 0011): a pure function
// from the attempt (its number, where its endpoint's last switch-on left its schedule, whether it is a test
// event or a redelivery by hand) and the receiver's answer to what happens to its message next (delivered,
// retried at a time, given up, or left where its schedule had it) and what it does to its endpoint's count of
// failed events in a row. The sender and the admin API run it; this module does no I/O.
//
// The count itself, and the switch-off when it reaches the threshold, are settled in the statement that records
// the attempts (`internal/webhookRecorder.ts`): the count is read and written under the endpoint's row lock,
// with other processes' attempts, so the policy hands it `outcome` and `failureCounts` folds a batch of them.
// For the same reason an endpoint switched off while an attempt was under way keeps the message (held) there.

/**
 * What switches an endpoint off: a count of failed *events* in a row, not of failed attempts. An event counts
 * once, when its first retry fails too (the attempt at `countedStep` of its schedule), or when its only attempt
 * fails if it has no retry (a test event). Any successful attempt to the endpoint starts the count again;
 * manual redeliveries that fail do not count.
 *
 * So an outage shorter than the first retry's wait never switches an endpoint off, however many events it
 * hits at once: each failed attempt ended during the outage, and its retry comes at least that wait later,
 * after it. A receiver that is down for real fails every event's retry and is switched off after the
 * threshold's number of events.
 */
const countedStep = 2

/** How an attempt ended, for the count: `"event failed"` adds one to the count, a success resets it. */
export type Outcome = "succeeded" | "failed" | "event failed"

/** How an attempt ended, for `herald_webhook_attempts_total`: a 2xx, any other status, or no answer at all. */
export type Result = "delivered" | "failed" | "unreachable"

/** The attempt the policy is asked about. */
export interface Attempt {
  /** Its number among its message's attempts, 1 for the first. */
  readonly number: number
  /** Attempts made before its endpoint was last switched on: its schedule starts after them. */
  readonly attemptsBefore: number
  /** A test event: one attempt, no retries, never kept for a switched-off endpoint. */
  readonly once: boolean
  /** A redelivery asked for by hand: it starts no retry schedule, and counts only when it succeeds. */
  readonly manual: boolean
}

/** What happens to the message. */
type Next =
  /** It got through: the message ends delivered. */
  | { readonly _tag: "Done" }
  /** It is due again at `at` (epoch ms). */
  | { readonly _tag: "Retry"; readonly at: number }
  /** Its schedule is spent (or it had one attempt only): the message ends failed. */
  | { readonly _tag: "GiveUp" }
  /** A redelivery by hand that failed: the message stays where its schedule had it. */
  | { readonly _tag: "Stay" }

export interface Decision {
  readonly result: Result
  readonly next: Next
  readonly outcome: Outcome
  /** False for a test event: what did not get through is never kept for a switched-off endpoint. */
  readonly keep: boolean
}

/** Only a 2xx counts as delivered; a 3xx is not followed. */
const resultOf = (answer: Answer): Result =>
  answer._tag === "Failed" ? "unreachable" : answer.status >= 200 && answer.status < 300 ? "delivered" : "failed"

/** Where the attempt is in its schedule, counted from its endpoint's last switch-on (1 for the first). */
const stepOf = (attempt: Attempt) => attempt.number - attempt.attemptsBefore

/** The attempts a message's schedule makes: the first and one per wait, or one for a test event. */
const stepsOf = (schedule: ReadonlyArray<number>, attempt: Attempt) => attempt.once ? 1 : schedule.length + 1

/**
 * The outcome of an attempt at `step` (1 for an event's first attempt since its endpoint was last switched
 * on) of a schedule of `steps` attempts; a manual attempt (a redelivery) counts only when it succeeds.
 */
export const outcome = (attempt: {
  readonly succeeded: boolean
  readonly step: number
  readonly steps: number
  readonly manual: boolean
}): Outcome =>
  attempt.succeeded
    ? "succeeded"
    : !attempt.manual && attempt.step === Math.min(countedStep, attempt.steps)
    ? "event failed"
    : "failed"

/**
 * What follows `answer` to an attempt that ended at `ended`, on a schedule of waits before each retry
 * (`schedule[0]` before the first). The wait runs from the attempt's end, so a slow answer never brings its
 * retry forward.
 */
export const decide = (schedule: ReadonlyArray<number>, attempt: Attempt, answer: Answer, ended: number): Decision => {
  const result = resultOf(answer)
  const succeeded = result === "delivered"
  const step = stepOf(attempt)
  const wait = attempt.once || attempt.manual ? undefined : schedule[step - 1]
  const next: Next = succeeded
    ? { _tag: "Done" }
    : attempt.manual
    ? { _tag: "Stay" }
    : wait === undefined
    ? { _tag: "GiveUp" }
    : { _tag: "Retry", at: ended + wait }
  return {
    result,
    next,
    outcome: outcome({ succeeded, step, steps: stepsOf(schedule, attempt), manual: attempt.manual }),
    keep: !attempt.once
  }
}

/**
 * What a batch of ended attempts does to each endpoint's count of failed events in a row, in the order they
 * ended: a success resets the count (`reset`), and the failed events after the last success add to it
 * (`added`). Endpoints with neither are left out, so their rows are not touched.
 */
export const failureCounts = (attempts: Iterable<{ readonly endpointId: string; readonly outcome: Outcome }>) => {
  const counts = new Map<string, { readonly reset: boolean; readonly added: number }>()
  for (const attempt of attempts) {
    if (attempt.outcome === "failed") continue
    const count = counts.get(attempt.endpointId) ?? { reset: false, added: 0 }
    counts.set(
      attempt.endpointId,
      attempt.outcome === "succeeded" ? { reset: true, added: 0 } : { reset: count.reset, added: count.added + 1 }
    )
  }
  return counts
}
