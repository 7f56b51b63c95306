import { assert, describe, it } from "@effect/vitest"
import { WebhookDelivery } from "@herald/core"
import * as Failures from "../src/WebhookPolicy.ts"

// The attempts one recording statement writes, in the order they ended (alternately endpoint a and b in
// `outcomes`), and what they do to each endpoint's count of failed events in a row. "+" a success, "x" a
// failed event (its retry failed too), "-" a failed attempt that does not count (a first attempt).
const marks = { "+": "succeeded", "x": "event failed", "-": "failed" } as const
const outcomes = (spec: string) =>
  [...spec].map((mark, index) => ({ endpointId: `whk_${index % 2 === 0 ? "a" : "b"}`, outcome: marks[mark as keyof typeof marks] }))
const onA = (spec: string) => [...spec].map((mark) => ({ endpointId: "whk_a", outcome: marks[mark as keyof typeof marks] }))

describe("failure counts of a batch of attempts", () => {
  it("failed events add to the count", () => {
    assert.deepStrictEqual(Object.fromEntries(WebhookDelivery.failureCounts(onA("xx"))), { whk_a: { reset: false, added: 2 } })
  })

  it("failed first attempts, however many end at once, count nothing and touch nothing", () => {
    assert.deepStrictEqual(Object.fromEntries(WebhookDelivery.failureCounts(onA("-".repeat(500)))), {})
  })

  it("a success resets the count; only the failed events after the last success add to it", () => {
    assert.deepStrictEqual(Object.fromEntries(WebhookDelivery.failureCounts(onA("xx+x-+x-x"))), { whk_a: { reset: true, added: 2 } })
  })

  it("ending on a success resets the count to nothing", () => {
    assert.deepStrictEqual(Object.fromEntries(WebhookDelivery.failureCounts(onA("x+"))), { whk_a: { reset: true, added: 0 } })
  })

  it("endpoints are counted apart", () => {
    // a: x + x   b: x x x
    const counts = WebhookDelivery.failureCounts(outcomes("xx+xxx"))
    assert.deepStrictEqual(Object.fromEntries(counts), { whk_a: { reset: true, added: 1 }, whk_b: { reset: false, added: 3 } })
  })
})

describe("which failed attempt counts its event", () => {
  // The default schedule: a first attempt and seven retries.
  const steps = 8

  it("the first retry's failure, once per event; not the first attempt, not the later retries", () => {
    const counted = Array.from({ length: steps }, (_, index) =>
      Failures.outcome({ succeeded: false, step: index + 1, steps, manual: false }))
    assert.deepStrictEqual(counted, ["failed", "event failed", "failed", "failed", "failed", "failed", "failed", "failed"])
  })

  it("an event with one attempt only (a test event, or no retries) counts when that attempt fails", () => {
    assert.strictEqual(Failures.outcome({ succeeded: false, step: 1, steps: 1, manual: false }), "event failed")
  })

  it("a redelivery by hand counts only when it succeeds", () => {
    assert.strictEqual(Failures.outcome({ succeeded: false, step: 2, steps, manual: true }), "failed")
    assert.strictEqual(Failures.outcome({ succeeded: true, step: 2, steps, manual: true }), "succeeded")
  })
})
