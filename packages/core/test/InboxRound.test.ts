import { assert, describe, it } from "@effect/vitest"
import { backoffCap, retryDelay } from "../src/internal/inboxRound.ts"

// How long a failing account waits for its next read: a minute, doubling with each failure in a row, at
// most an hour, and never sooner than the account's own interval.
describe("inbox backoff", () => {
  it("doubles from a minute per failure in a row, capped at an hour", () => {
    assert.deepStrictEqual([1, 2, 3, 4, 5, 6, 7, 8, 30].map((failures) => retryDelay(failures, 0) / 60_000), [1, 2, 4, 8, 16, 32, 60, 60, 60])
    assert.strictEqual(backoffCap, 60 * 60_000)
  })

  it("never reads an account sooner than its network's own interval", () => {
    const youtube = 15 * 60_000
    assert.deepStrictEqual([1, 4, 5, 6, 9].map((failures) => retryDelay(failures, youtube) / 60_000), [15, 15, 16, 32, 60])
  })
})
