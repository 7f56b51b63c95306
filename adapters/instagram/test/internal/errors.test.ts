import { assert, describe, it } from "@effect/vitest"
import { Headers } from "effect/http"
import * as Errors from "../../src/internal/errors.ts"

/** A refused answer as the kit's client hands it to the table. */
const refused = (status: number, body: unknown, retryAfterMs?: number) =>
  Errors.refusal({ status, body, headers: Headers.empty, path: "/v27.0/me", retryAfterMs, now: 0, call: "read" })
const graph = (status: number, error: Record<string, unknown>) => refused(status, { error })

describe("errors.refusal", () => {
  it("asks for a refresh only when the token expired (190/463)", () => {
    const expired = graph(400, { message: "Session has expired", type: "OAuthException", code: 190, error_subcode: 463 })
    assert.strictEqual(expired.reason._tag, "AuthExpired")
    for (const subcode of [undefined, 458, 460, 467]) {
      const base = { message: "Error validating access token", code: 190 }
      const error = graph(400, subcode === undefined ? base : { ...base, error_subcode: subcode })
      assert.strictEqual(error.reason._tag, "NeedsReconnect", `subcode ${subcode}`)
    }
  })

  it("retries throttling later and passing faults soon", () => {
    for (const code of [4, 17, 32, 613, 9]) {
      const error = graph(400, { message: "limit", code })
      assert.strictEqual(error.reason._tag, "RateLimited", `code ${code}`)
      assert.isAbove(error.retryAfterMs ?? 0, 0)
    }
    // A wait the answer names itself (`Retry-After`) wins over the table's.
    assert.strictEqual(refused(400, { error: { message: "limit", code: 4 } }, 30_000).retryAfterMs, 30_000)
    for (const code of [1, 2]) assert.strictEqual(graph(500, { message: "oops", code }).reason._tag, "Transient")
    assert.strictEqual(graph(400, { message: "odd", code: 12345, is_transient: true }).reason._tag, "Transient")
    assert.strictEqual(refused(503, "").reason._tag, "Transient")
    assert.strictEqual(refused(429, {}).reason._tag, "RateLimited")
  })

  it("refuses a message outside the messaging window without asking for a reconnect", () => {
    const window = graph(400, { message: "This message is sent outside of allowed window.", code: 10, error_subcode: 2018278 })
    assert.strictEqual(window.reason._tag, "Rejected")
    assert.include(window.message, "24 hours")
    assert.strictEqual(graph(400, { message: "Permissions error", code: 10 }).reason._tag, "NeedsReconnect")
  })

  it("explains publishing subcodes in words, keeping Instagram's own", () => {
    const error = graph(400, {
      message: "Media upload has failed with error code 2207009",
      code: 36003,
      error_subcode: 2207009,
      error_user_msg: "The aspect ratio is not supported."
    })
    assert.strictEqual(error.reason._tag, "Rejected")
    assert.strictEqual(
      error.message,
      "instagram: the photo's aspect ratio must lie between 4:5 and 1.91:1 (The aspect ratio is not supported.)"
    )
    assert.strictEqual(graph(400, { message: "limit", code: 9, error_subcode: 2207042 }).reason._tag, "RateLimited")
    assert.strictEqual(graph(400, { message: "not ready", code: 9007, error_subcode: 2207027 }).reason._tag, "Transient")
  })

  it("passes an unknown refusal on as Instagram worded it", () => {
    const error = graph(400, { message: "(#100) Invalid parameter", code: 100 })
    assert.strictEqual(error.reason._tag, "Rejected")
    assert.strictEqual(error.reason.message, "(#100) Invalid parameter")
  })

  it("reads the token endpoint's older error shape", () => {
    const error = refused(400, { error_type: "OAuthException", code: 400, error_message: "Invalid authorization code" })
    assert.strictEqual(error.reason._tag, "NeedsReconnect")
    assert.include(error.message, "Invalid authorization code")
  })
})

describe("errors for containers", () => {
  it("maps a failed container's status through the same table", () => {
    const error = Errors.fromContainerStatus("ERROR", "Error: Media upload has failed with error code 2207026")
    assert.include(error.reason.message, "video format is not supported")
    assert.include(Errors.fromContainerStatus("EXPIRED", undefined).reason.message, "24 hours")
    assert.strictEqual(Errors.fromContainerStatus("ERROR", "Error").reason._tag, "Rejected")
  })
})
