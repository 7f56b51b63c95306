/**
 * What switches an endpoint off (decision 0011): a count of failed *events* in a row, not of failed
 * attempts. An event counts once, when its first retry fails too (the attempt at `countedStep` of its
 * schedule), or when its only attempt fails if it has no retry (a test event). Any successful attempt to the
 * endpoint starts the count again; manual redeliveries that fail do not count.
 *
 * So an outage shorter than the first retry's wait never switches an endpoint off, however many events it
 * hits at once: each failed attempt ended during the outage, and its retry comes at least that wait later,
 * after it. A receiver that is down for real fails every event's retry and is switched off after the
 * threshold's number of events.
 */
export const countedStep = 2

/** How an attempt ended, for the count: `"event failed"` adds one to the count, a success resets it. */
export type Outcome = "succeeded" | "failed" | "event failed"

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
