import { assert, describe, it } from "@effect/vitest"
import { NetworkClient } from "@herald/adapter-kit"
import { Headers } from "effect/http"
import * as Errors from "../src/internal/errors.ts"

/** An answer as the kit's client hands it to the table, the wait read from X's reset header as the kit reads it. */
const answer = (status: number, body: unknown, headers: Record<string, string> = {}, now = 0): NetworkClient.Refusal => ({
  status,
  body,
  headers: Headers.fromInput(headers),
  path: "https://api.x.com/2/tweets",
  retryAfterMs: NetworkClient.resetWaitMs(Errors.resetHeader, headers[Errors.resetHeader.name], now),
  now,
  call: "makesPost"
})

const reasonOf = (status: number, body: unknown, headers: Record<string, string> = {}, now = 0) =>
  Errors.refusal(answer(status, body, headers, now)).reason

describe("x errors", () => {
  it("asks for a refresh on 401 and a reconnect when the token endpoint refuses the grant", () => {
    assert.strictEqual(reasonOf(401, { title: "Unauthorized", detail: "Unauthorized", status: 401 })._tag, "AuthExpired")
    const refused = reasonOf(400, { error: "invalid_request", error_description: "Value passed for the token was invalid." })
    assert.strictEqual(refused._tag, "NeedsReconnect")
    assert.strictEqual(refused.message, "Value passed for the token was invalid.")
    assert.strictEqual(reasonOf(401, { error: "unauthorized_client" })._tag, "NeedsReconnect")
  })

  it("asks for a reconnect when X refuses the kind of token (its unsupported-authentication problem, a 403), whatever its words", () => {
    const body = {
      title: "Unsupported Authentication",
      detail: "Authenticating with OAuth 2.0 Application-Only is forbidden for this endpoint.  Supported authentication types are [OAuth 1.0a User Context, OAuth 2.0 User Context].",
      type: "https://api.twitter.com/2/problems/unsupported-authentication",
      status: 403
    }
    const refused = reasonOf(403, body)
    assert.strictEqual(refused._tag, "NeedsReconnect")
    assert.include(refused.message, "Application-Only is forbidden")
    assert.strictEqual(reasonOf(401, { ...body, status: 401 })._tag, "NeedsReconnect")
    // The words alone decide nothing: a 403 without the type is X refusing the post.
    assert.strictEqual(reasonOf(403, { detail: "Unsupported Authentication" })._tag, "Rejected")
  })

  it("waits until x-rate-limit-reset on 429, but gives up on a usage cap", () => {
    const limited = reasonOf(429, { errors: [{ code: 88, message: "Rate limit exceeded" }] }, {
      "x-rate-limit-reset": "1000"
    }, 940_000)
    assert.strictEqual(limited._tag, "RateLimited")
    assert.strictEqual(limited._tag === "RateLimited" ? limited.retryAfterMs : 0, 60_000)
    assert.strictEqual(limited.message, "Rate limit exceeded")
    const capped = reasonOf(429, { title: "Usage cap exceeded", type: "https://api.x.com/2/problems/usage-capped" })
    assert.strictEqual(capped._tag, "Rejected")
  })

  it("rejects for good on 403 with X's words and retries 5xx", () => {
    const duplicate = reasonOf(403, { detail: "You are not allowed to create a Tweet with duplicate content." })
    assert.strictEqual(duplicate._tag, "Rejected")
    assert.include(duplicate.message, "duplicate content")
    assert.strictEqual(reasonOf(503, { title: "Service Unavailable" })._tag, "Transient")
    assert.strictEqual(reasonOf(502, "not json")._tag, "Transient")
  })

  it("reads a 2xx with errors and no data as a refusal", () => {
    const refused = Errors.refusedIn(answer(200, { errors: [{ title: "Forbidden", detail: "nope" }] }))
    assert.deepStrictEqual([refused?.reason._tag, refused?.reason.message], ["Rejected", "nope"])
    assert.isUndefined(Errors.refusedIn(answer(200, { data: { id: "1" } })))
    assert.isUndefined(Errors.refusedIn(answer(200, { data: { id: "1" }, errors: [{ detail: "one field" }] })))
  })
})
