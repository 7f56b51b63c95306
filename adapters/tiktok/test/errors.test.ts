import { assert, describe, it } from "@effect/vitest"
import * as Errors from "../src/internal/errors.ts"

// TikTok's error codes become the reasons the publishing engine acts on.

const reasonOf = (status: number, code: string) => Errors.fromCode({ status, code, message: "from TikTok" }).reason._tag

describe("TikTok errors", () => {
  it("asks for a refresh on an invalid token, and a reconnect when the grant or scope is gone", () => {
    assert.strictEqual(reasonOf(401, "access_token_invalid"), "AuthExpired")
    assert.strictEqual(reasonOf(400, "invalid_grant"), "NeedsReconnect")
    assert.strictEqual(reasonOf(401, "scope_not_authorized"), "NeedsReconnect")
  })

  it("waits a minute on rate limits", () => {
    const error = Errors.fromCode({ status: 429, code: "rate_limit_exceeded" })
    assert.strictEqual(error.reason._tag, "RateLimited")
    assert.strictEqual(error.retryAfterMs, 60_000)
    assert.strictEqual(reasonOf(429, "something_new"), "RateLimited")
  })

  it("refuses spam, caps and unaudited apps for good, explaining them", () => {
    assert.strictEqual(reasonOf(403, "spam_risk_too_many_posts"), "Rejected")
    assert.strictEqual(reasonOf(403, "spam_risk_user_banned_from_posting"), "Rejected")
    const unaudited = Errors.fromCode({ status: 403, code: "unaudited_client_can_only_post_to_private_accounts" })
    assert.include(unaudited.reason.message, "SELF_ONLY")
  })

  it("retries server errors whatever their code", () => {
    assert.strictEqual(reasonOf(500, "internal_error"), "Transient")
    assert.strictEqual(reasonOf(503, "spam_risk_text"), "Transient")
  })

  it("turns a fail_reason into a refusal a person can read", () => {
    const error = Errors.fromFailReason("video_pull_failed")
    assert.strictEqual(error.reason._tag, "Rejected")
    assert.include(error.reason.message, "could not download the video")
    assert.strictEqual(Errors.fromFailReason("auth_removed").reason._tag, "NeedsReconnect")
  })

  it("never lets a lost init answer be retried blindly, but retries lost reads", () => {
    assert.strictEqual(Errors.fromTransport("socket hang up", "create").reason._tag, "OutcomeUnknown")
    assert.strictEqual(Errors.fromTransport("socket hang up", "read").reason._tag, "Transient")
  })

  it("does not find codes on Object's prototype", () => {
    assert.strictEqual(reasonOf(400, "constructor"), "Rejected")
    assert.include(Errors.fromCode({ status: 400, code: "toString" }).reason.message, "TikTok answered toString")
  })
})
