import { assert, describe, it } from "@effect/vitest"
import { WebhookDelivery } from "@herald/core"

// The attempts one recording statement writes, in the order they ended (alternately endpoint a and b in
// `outcomes`), and what they do to each endpoint's count of failures in a row.
const outcomes = (spec: string) =>
  [...spec].map((mark, index) => ({ endpointId: `wh_${index % 2 === 0 ? "a" : "b"}`, succeeded: mark === "+" }))

describe("failure counts of a batch of attempts", () => {
  it("failures only: they add to the count", () => {
    const counts = WebhookDelivery.failureCounts([{ endpointId: "wh_a", succeeded: false }, { endpointId: "wh_a", succeeded: false }])
    assert.deepStrictEqual(Object.fromEntries(counts), { wh_a: { reset: false, added: 2 } })
  })

  it("a success resets the count; only the failures after the last success add to it", () => {
    const counts = WebhookDelivery.failureCounts(
      ["-", "-", "+", "-", "+", "-", "-"].map((mark) => ({ endpointId: "wh_a", succeeded: mark === "+" }))
    )
    assert.deepStrictEqual(Object.fromEntries(counts), { wh_a: { reset: true, added: 2 } })
  })

  it("ending on a success resets the count to nothing", () => {
    const counts = WebhookDelivery.failureCounts([{ endpointId: "wh_a", succeeded: false }, { endpointId: "wh_a", succeeded: true }])
    assert.deepStrictEqual(Object.fromEntries(counts), { wh_a: { reset: true, added: 0 } })
  })

  it("endpoints are counted apart", () => {
    // a: - + -   b: - - -
    const counts = WebhookDelivery.failureCounts(outcomes("--+---"))
    assert.deepStrictEqual(Object.fromEntries(counts), { wh_a: { reset: true, added: 1 }, wh_b: { reset: false, added: 3 } })
  })
})
