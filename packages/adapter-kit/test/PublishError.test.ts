import { assert, describe, it } from "@effect/vitest"
import { PublishError } from "../src/index.ts"

describe("PublishError.of", () => {
  it("builds each reason from its tag, retry-after only for rate limits", () => {
    const tags: ReadonlyArray<PublishError.ReasonTag> = [
      "RateLimited", "Transient", "Rejected", "AuthExpired", "NeedsReconnect", "OutcomeUnknown"
    ]
    for (const tag of tags) {
      const error = PublishError.of("x", tag, "why", 5_000)
      assert.strictEqual(error.reason._tag, tag)
      assert.strictEqual(error.message, "x: why")
      assert.strictEqual(error.retryable, tag === "RateLimited" || tag === "Transient")
      assert.strictEqual(error.retryAfterMs, tag === "RateLimited" ? 5_000 : undefined)
    }
  })
})
