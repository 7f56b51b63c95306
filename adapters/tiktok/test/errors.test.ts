import { assert, describe, it } from "@effect/vitest"
import { Headers } from "effect/http"
import { NetworkClient } from "@herald/adapter-kit"
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
    assert.strictEqual(NetworkClient.lost(Errors.client, "makesPost", "socket hang up").reason._tag, "OutcomeUnknown")
    assert.strictEqual(NetworkClient.lost(Errors.client, "read", "socket hang up").reason._tag, "Transient")
  })

  it("reads the code from the envelope, even in a 200, or from the token endpoint's answer", () => {
    const refusal = (status: number, body: unknown): NetworkClient.Refusal =>
      ({ status, body, headers: Headers.empty, path: "/v2/post/publish/video/init/", retryAfterMs: undefined, now: 0, call: "makesPost" })
    assert.strictEqual(Errors.refusedIn(refusal(200, { data: {}, error: { code: "spam_risk_too_many_posts" } }))?.reason._tag, "Rejected")
    assert.isUndefined(Errors.refusedIn(refusal(200, { data: {}, error: { code: "ok" } })))
    assert.strictEqual(Errors.refusal(refusal(400, { error: "invalid_grant", error_description: "expired" })).reason._tag, "NeedsReconnect")
    assert.include(Errors.refusal(refusal(502, "Bad Gateway")).reason.message, "http_502")
  })

  it("does not find codes on Object's prototype", () => {
    assert.strictEqual(reasonOf(400, "constructor"), "Rejected")
    assert.include(Errors.fromCode({ status: 400, code: "toString" }).reason.message, "TikTok answered toString")
  })
})
