import { assert, describe, it } from "@effect/vitest"
import * as Errors from "../src/internal/errors.ts"

const reasonOf = (status: number, error: Record<string, unknown>) =>
  Errors.toPublishError(Errors.wire(status, { error: { type: "OAuthException", ...error } })).reason

describe("threads errors", () => {
  it("asks for a refresh when the token expired and a reconnect for any other code 190", () => {
    assert.strictEqual(reasonOf(400, { code: 190, error_subcode: 463, message: "Session has expired" })._tag, "AuthExpired")
    assert.strictEqual(reasonOf(400, { code: 190, error_subcode: 458, message: "not authorized" })._tag, "NeedsReconnect")
    assert.strictEqual(reasonOf(400, { code: 190, message: "Cannot parse access token" })._tag, "NeedsReconnect")
    assert.strictEqual(reasonOf(403, { code: 10, message: "Application does not have permission" })._tag, "NeedsReconnect")
  })

  it("waits on Meta's rate-limit codes and retries transient faults", () => {
    for (const code of [4, 17, 32, 613]) assert.strictEqual(reasonOf(400, { code, message: "limit" })._tag, "RateLimited")
    assert.strictEqual(reasonOf(500, { code: 2, is_transient: true, message: "retry later" })._tag, "Transient")
    assert.strictEqual(reasonOf(400, { code: 1, message: "unknown error" })._tag, "Transient")
    assert.strictEqual(Errors.toPublishError(Errors.wire(502, "<html>")).reason._tag, "Transient")
  })

  it("rejects with the person-facing message when Threads gives one", () => {
    const restricted = reasonOf(400, {
      code: 100,
      error_subcode: 2207051,
      message: "Action is restricted",
      error_user_msg: "This post goes against our Community Standards"
    })
    assert.strictEqual(restricted._tag, "Rejected")
    assert.strictEqual(restricted.message, "This post goes against our Community Standards")
    assert.strictEqual(reasonOf(400, { code: 100, message: "The media could not be fetched from this URI" })._tag, "Rejected")
  })

  it("marks a publish whose answer was lost as of unknown outcome", () => {
    assert.strictEqual(Errors.lost(true, "socket hang up").reason._tag, "OutcomeUnknown")
    assert.strictEqual(Errors.lost(false, "socket hang up").reason._tag, "Transient")
  })
})
