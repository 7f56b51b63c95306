import { assert, describe, it } from "@effect/vitest"
import { Headers } from "effect/http"
import { NetworkClient } from "@herald/adapter-kit"
import * as Errors from "../src/internal/errors.ts"

// Google's error answers become the reasons the publishing engine acts on.

const reasonOf = (status: number, reason: string) => Errors.fromReason({ status, reason }).reason._tag

describe("YouTube errors", () => {
  it("refreshes on a 401 and reconnects on invalid_grant or missing scopes", () => {
    assert.strictEqual(reasonOf(401, "authError"), "AuthExpired")
    assert.strictEqual(reasonOf(401, "UNAUTHENTICATED"), "AuthExpired")
    assert.strictEqual(reasonOf(400, "invalid_grant"), "NeedsReconnect")
    assert.strictEqual(reasonOf(403, "insufficientPermissions"), "NeedsReconnect")
  })

  it("waits out rate limits briefly and the daily quota longer", () => {
    const rate = Errors.fromReason({ status: 403, reason: "rateLimitExceeded" })
    assert.strictEqual(rate.reason._tag, "RateLimited")
    assert.strictEqual(rate.retryAfterMs, Errors.rateLimitWaitMs)
    const quota = Errors.fromReason({ status: 403, reason: "quotaExceeded" })
    assert.strictEqual(quota.reason._tag, "RateLimited")
    assert.strictEqual(quota.retryAfterMs, Errors.quotaWaitMs)
    assert.include(quota.reason.message, "midnight Pacific")
  })

  it("refuses upload limits and bad metadata for good", () => {
    assert.strictEqual(reasonOf(400, "uploadLimitExceeded"), "Rejected")
    assert.strictEqual(reasonOf(400, "invalidTitle"), "Rejected")
    assert.strictEqual(reasonOf(403, "youtubeSignupRequired"), "Rejected")
  })

  it("retries server errors whatever their reason", () => {
    assert.strictEqual(reasonOf(503, "backendError"), "Transient")
    assert.strictEqual(reasonOf(500, "uploadLimitExceeded"), "Transient")
  })

  it("explains a video refused after upload", () => {
    const error = Errors.fromVideoStatus("duplicate", "rejected")
    assert.strictEqual(error.reason._tag, "Rejected")
    assert.include(error.reason.message, "duplicate")
    assert.strictEqual(Errors.fromVideoStatus(undefined, "processing failed").reason._tag, "Rejected")
  })

  it("refuses a long video for an unverified or barred channel, and leaves an unknown status to YouTube", () => {
    const refusal = (status: string | undefined, durationMs = 15 * 60 * 1000 + 1) =>
      Errors.fromLongUploads({ status, position: 1, durationMs, verifyUrl: "https://www.youtube.com/verify" })
    assert.strictEqual(
      refusal("eligible")?.message,
      "youtube: video 1 is 15.1 min long; this channel can upload videos of at most 15 min until it is verified (https://www.youtube.com/verify)"
    )
    assert.strictEqual(refusal("eligible")?.reason._tag, "Rejected")
    assert.include(refusal("disallowed", 3_600_000)?.message, "video 1 is 60 min long; YouTube does not let this channel")
    for (const status of ["allowed", "longUploadsUnspecified", "somethingNew", "toString", undefined]) {
      assert.isUndefined(refusal(status), String(status))
    }
  })

  it("never lets a lost upload answer be retried blindly, but retries lost reads", () => {
    assert.strictEqual(NetworkClient.lost(Errors.client, "makesPost", "reset").reason._tag, "OutcomeUnknown")
    assert.strictEqual(NetworkClient.lost(Errors.client, "read", "reset").reason._tag, "Transient")
  })

  it("reads Google's first reason from a Data API answer and the OAuth error from the token endpoint's", () => {
    const refused = (status: number, body: unknown) =>
      Errors.refusal({ status, body, headers: Headers.empty, path: "/youtube/v3/videos", retryAfterMs: undefined, now: 0, call: "read" })
    const quota = refused(403, { error: { message: "over", errors: [{ reason: "quotaExceeded" }] } })
    assert.strictEqual(quota.retryAfterMs, Errors.quotaWaitMs)
    assert.strictEqual(refused(400, { error: "invalid_grant", error_description: "revoked" }).reason._tag, "NeedsReconnect")
    assert.include(refused(404, "not json").reason.message, "http_404")
  })
})
