import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
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

describe("PublishError.lookingFirst", () => {
  it.effect("keeps a look's passing fault (the engine tries the look again), and makes a refused look an unknown outcome", () =>
    Effect.gen(function*() {
      for (const passing of [
        PublishError.transient("x", "timed out"),
        PublishError.rateLimited("x", "slow down", 1_000),
        PublishError.authExpired("x", "expired")
      ]) {
        assert.strictEqual(yield* Effect.flip(PublishError.lookingFirst("x", "the reply", Effect.fail(passing))), passing)
      }
      for (const failure of [
        PublishError.needsReconnect("x", "revoked"),
        PublishError.rejected("x", "forbidden")
      ]) {
        const error = yield* Effect.flip(PublishError.lookingFirst("x", "the reply", Effect.fail(failure)))
        assert.strictEqual(error.reason._tag, "OutcomeUnknown")
        assert.isFalse(error.retryable)
        assert.include(error.message, "the reply")
        assert.include(error.message, failure.reason.message)
      }
      const unknown = PublishError.outcomeUnknown("x", "lost")
      assert.strictEqual(yield* Effect.flip(PublishError.lookingFirst("x", "it", Effect.fail(unknown))), unknown)
      assert.strictEqual(yield* PublishError.lookingFirst("x", "it", Effect.succeed(7)), 7)
    }))
})

describe("PublishError.refusalLogged", () => {
  it.effect("lets a refusal for good pass (a post that is out is not failed for its first comment), not a fault worth another try", () =>
    Effect.gen(function*() {
      for (const refusal of [PublishError.rejected("x", "no"), PublishError.needsReconnect("x", "revoked")]) {
        yield* PublishError.refusalLogged("the first comment was refused", Effect.fail(refusal))
      }
      for (const fault of [
        PublishError.transient("x", "timed out"),
        PublishError.rateLimited("x", "slow down", 1_000),
        PublishError.outcomeUnknown("x", "answer lost")
      ]) {
        const error = yield* Effect.flip(PublishError.refusalLogged("the first comment was refused", Effect.fail(fault)))
        assert.strictEqual(error, fault)
      }
    }))
})
