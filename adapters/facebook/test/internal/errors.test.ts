import { assert, describe, it } from "@effect/vitest"
import { Headers } from "effect/http"
import * as Errors from "../../src/internal/errors.ts"

/** A refused answer as the kit's client hands it to the table. */
const refused = (status: number, body: unknown, retryAfterMs?: number) =>
  Errors.refusal({ status, body, headers: Headers.empty, path: "/v27.0/me", retryAfterMs, now: 0, call: "read" })
const graph = (status: number, error: Record<string, unknown>) => refused(status, { error })

describe("errors.refusal", () => {
  it("asks for a new connection on every code 190, expired Page tokens included (nothing to refresh)", () => {
    for (const subcode of [458, 460, 463, 467]) {
      assert.strictEqual(graph(400, { message: "Error validating access token", code: 190, error_subcode: subcode }).reason._tag, "NeedsReconnect")
    }
    assert.strictEqual(graph(400, { message: "Error validating access token", code: 190 }).reason._tag, "NeedsReconnect")
  })

  it("asks for a new connection when a permission or Page role is missing", () => {
    for (const code of [10, 200, 210, 299]) {
      const error = graph(403, { message: "(#200) requires pages_manage_posts", code })
      assert.strictEqual(error.reason._tag, "NeedsReconnect", `code ${code}`)
      assert.include(error.message, "permission")
    }
  })

  it("refuses an answer outside Messenger's 24-hour window rather than asking for a reconnect", () => {
    const error = graph(400, { message: "(#10) This message is sent outside of allowed window.", code: 10, error_subcode: 2018278 })
    assert.strictEqual(error.reason._tag, "Rejected")
    assert.include(error.message, "24 hours")
  })

  it("retries throttling later and passing faults soon", () => {
    for (const code of [4, 17, 32, 613, 80001]) {
      const error = graph(400, { message: "limit", code })
      assert.strictEqual(error.reason._tag, "RateLimited", `code ${code}`)
      assert.isAbove(error.retryAfterMs ?? 0, 0)
    }
    // A wait the answer names itself (`Retry-After`) wins over the table's.
    assert.strictEqual(refused(400, { error: { message: "limit", code: 4 } }, 30_000).retryAfterMs, 30_000)
    for (const code of [1, 2]) assert.strictEqual(graph(500, { message: "oops", code }).reason._tag, "Transient")
    assert.strictEqual(graph(400, { message: "odd", code: 12345, is_transient: true }).reason._tag, "Transient")
    assert.strictEqual(refused(502, "").reason._tag, "Transient")
  })

  it("explains refusals in words and keeps Facebook's own", () => {
    const duplicate = graph(400, { message: "(#506) Duplicate status message", code: 506 })
    assert.strictEqual(duplicate.reason._tag, "Rejected")
    assert.strictEqual(
      duplicate.message,
      "facebook: Facebook refuses a post identical to the one just before it ((#506) Duplicate status message)"
    )
    const unknown = graph(400, { message: "(#100) Invalid parameter", code: 100 })
    assert.strictEqual(unknown.reason.message, "(#100) Invalid parameter")
  })
})
