import { assert, describe, it } from "@effect/vitest"
import * as Errors from "../src/internal/errors.ts"

const reason = (status: number, body: unknown, reset?: string) =>
  Errors.toPublishError(Errors.wire(status, body, reset), 1_000_000)

describe("Bluesky errors", () => {
  it("maps each XRPC error to one reason", () => {
    assert.strictEqual(reason(400, { error: "ExpiredToken", message: "Token has expired" }).reason._tag, "AuthExpired")
    assert.strictEqual(reason(401, { error: "InvalidToken", message: "Token has been revoked" }).reason._tag, "NeedsReconnect")
    assert.strictEqual(reason(401, { error: "AuthenticationRequired" }).reason._tag, "NeedsReconnect")
    assert.strictEqual(reason(400, { error: "AccountTakedown" }).reason._tag, "NeedsReconnect")
    assert.strictEqual(reason(502, { error: "UpstreamFailure" }).reason._tag, "Transient")
    const invalid = reason(400, { error: "InvalidRequest", message: "Record/text must not be longer than 300 graphemes" })
    assert.strictEqual(invalid.reason._tag, "Rejected")
    assert.include(invalid.reason.message, "300 graphemes")
  })

  it("waits for a rate limit until ratelimit-reset (epoch seconds)", () => {
    const limited = reason(429, { error: "RateLimitExceeded", message: "Rate Limit Exceeded" }, "1060")
    assert.strictEqual(limited.reason._tag, "RateLimited")
    assert.strictEqual((limited.reason as { retryAfterMs: number }).retryAfterMs, 60_000)
    // Without the header: five minutes.
    assert.strictEqual((reason(429, {}).reason as { retryAfterMs: number }).retryAfterMs, 300_000)
  })

  it("asks for a new sign-in when the session cannot be renewed", () => {
    const refused = Errors.refreshRefused(reason(400, { error: "ExpiredToken", message: "Token has been revoked" }))
    assert.strictEqual(refused.reason._tag, "NeedsReconnect")
    const limited = Errors.refreshRefused(reason(429, {}))
    assert.strictEqual(limited.reason._tag, "RateLimited")
  })

  it("never resends blindly a post whose answer was lost", () => {
    assert.strictEqual(Errors.lost(true, "socket hang up").reason._tag, "OutcomeUnknown")
    assert.strictEqual(Errors.lost(false, "socket hang up").reason._tag, "Transient")
  })
})
