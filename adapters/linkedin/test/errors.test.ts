import { assert, describe, it } from "@effect/vitest"
import { Headers } from "effect/http"
import * as Errors from "../src/internal/errors.ts"

const reasonOf = (status: number, body: unknown) =>
  Errors.refusal({ status, body, headers: Headers.empty, path: "/rest/posts", retryAfterMs: undefined, now: 0, call: "read" }).reason

describe("errors", () => {
  it("asks for a reconnect when the member revoked access", () => {
    assert.strictEqual(
      reasonOf(401, { status: 401, code: "REVOKED_ACCESS_TOKEN", message: "The token used in the request has been revoked by the user" })._tag,
      "NeedsReconnect"
    )
    assert.strictEqual(reasonOf(401, { status: 401, serviceErrorCode: 65601, message: "revoked" })._tag, "NeedsReconnect")
  })

  it("refreshes on other 401s", () => {
    const reason = reasonOf(401, { status: 401, serviceErrorCode: 65602, code: "EXPIRED_ACCESS_TOKEN", message: "The token used in the request has expired" })
    assert.strictEqual(reason._tag, "AuthExpired")
    assert.include(reason.message, "The token used in the request has expired")
    assert.strictEqual(reasonOf(401, "not json")._tag, "AuthExpired")
  })

  it("asks for a reconnect when the token endpoint refuses the grant", () => {
    const reason = reasonOf(400, { error: "invalid_grant", error_description: "The provided refresh token is revoked" })
    assert.strictEqual(reason._tag, "NeedsReconnect")
    assert.include(reason.message, "The provided refresh token is revoked")
  })

  it("rejects forbidden, duplicate and invalid posts with LinkedIn's words", () => {
    const duplicate = reasonOf(422, { status: 422, message: "Content is a duplicate of urn:li:share:7123" })
    assert.strictEqual(duplicate._tag, "Rejected")
    assert.include(duplicate.message, "Content is a duplicate of urn:li:share:7123")
    assert.strictEqual(reasonOf(403, { status: 403, code: "ACCESS_DENIED", message: "Not enough permissions" })._tag, "Rejected")
    assert.strictEqual(reasonOf(400, { status: 400, message: "Invalid URN" })._tag, "Rejected")
    assert.include(reasonOf(426, { status: 426, code: "NONEXISTENT_VERSION", message: "Requested version 202301 is not active" }).message, "LinkedIn-Version")
  })

  it("waits a minute after a 429, which comes without Retry-After", () => {
    const reason = reasonOf(429, { status: 429, message: "Resource level throttle limit exceeded" })
    assert.strictEqual(reason._tag, "RateLimited")
    assert.strictEqual(reason._tag === "RateLimited" ? reason.retryAfterMs : 0, Errors.defaultRetryAfterMs)
  })

  it("retries server errors and timeouts", () => {
    assert.strictEqual(reasonOf(503, { status: 503, message: "Service Unavailable" })._tag, "Transient")
    assert.strictEqual(reasonOf(500, null)._tag, "Transient")
    assert.strictEqual(reasonOf(504, {})._tag, "Transient")
    assert.strictEqual(reasonOf(408, {})._tag, "Transient")
    assert.include(reasonOf(500, null).message, "HTTP 500")
  })
})
