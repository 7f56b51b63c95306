import { assert, describe, it } from "@effect/vitest"
import type { NetworkClient } from "@herald/adapter-kit"
import { Effect, Layer, Redacted } from "effect"
import { Headers, HttpClient, HttpClientError, HttpClientResponse } from "effect/http"
import * as BlueskyClient from "../src/BlueskyClient.ts"
import * as BlueskyConfig from "../src/BlueskyConfig.ts"
import * as Errors from "../src/internal/errors.ts"

const reason = (status: number, body: unknown, retryAfterMs?: number) =>
  Errors.refusal({
    status,
    body,
    headers: Headers.empty,
    path: "https://bsky.social/xrpc/com.atproto.repo.createRecord",
    retryAfterMs,
    now: 1_000_000,
    call: "read"
  } satisfies NetworkClient.Refusal)

/** The client against a fake `HttpClient` answering `response`, or losing the answer when it is undefined. */
const client = (response: () => Response | undefined) =>
  BlueskyClient.make(BlueskyConfig.realConfig("", Redacted.make(""))).pipe(Effect.provide(Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request) => {
      const answer = response()
      return answer === undefined
        ? Effect.fail(new HttpClientError.HttpClientError({ reason: new HttpClientError.TransportError({ request }) }))
        : Effect.succeed(HttpClientResponse.fromWeb(request, answer))
    })
  )))

const token = Redacted.make("access")

describe("Bluesky errors", () => {
  it("maps each XRPC error to one reason", () => {
    assert.strictEqual(reason(400, { error: "ExpiredToken", message: "Token has expired" }).reason._tag, "AuthExpired")
    assert.strictEqual(reason(401, { error: "InvalidToken", message: "Token has been revoked" }).reason._tag, "NeedsReconnect")
    assert.strictEqual(reason(401, { error: "AuthenticationRequired" }).reason._tag, "NeedsReconnect")
    assert.strictEqual(reason(400, { error: "AccountTakedown" }).reason._tag, "NeedsReconnect")
    assert.strictEqual(reason(502, { error: "UpstreamFailure" }).reason._tag, "Transient")
    assert.strictEqual(reason(502, "<html>bad gateway</html>").reason._tag, "Transient")
    const invalid = reason(400, { error: "InvalidRequest", message: "Record/text must not be longer than 300 graphemes" })
    assert.strictEqual(invalid.reason._tag, "Rejected")
    assert.include(invalid.reason.message, "300 graphemes")
  })

  it.effect("waits for a rate limit until ratelimit-reset (epoch seconds)", () =>
    Effect.gen(function*() {
      // The test clock stands at 0: a reset at epoch second 60 is a minute away.
      const limited = yield* Effect.flip(
        Effect.flatMap(
          client(() =>
            Response.json({ error: "RateLimitExceeded", message: "Rate Limit Exceeded" }, {
              status: 429,
              headers: { "ratelimit-reset": "60" }
            })
          ),
          (bluesky) => bluesky.recentPosts(token, "did:plc:herald")
        )
      )
      assert.strictEqual(limited.reason._tag, "RateLimited")
      assert.strictEqual((limited.reason as { retryAfterMs: number }).retryAfterMs, 60_000)
      // Without the header: five minutes.
      assert.strictEqual((reason(429, {}).reason as { retryAfterMs: number }).retryAfterMs, 300_000)
    }))

  it("asks for a new sign-in when the session cannot be renewed", () => {
    const refused = Errors.refreshRefused(reason(400, { error: "ExpiredToken", message: "Token has been revoked" }))
    assert.strictEqual(refused.reason._tag, "NeedsReconnect")
    const limited = Errors.refreshRefused(reason(429, {}))
    assert.strictEqual(limited.reason._tag, "RateLimited")
  })

  it.effect("never resends blindly a post whose answer was lost", () =>
    Effect.gen(function*() {
      const bluesky = yield* client(() => undefined)
      const created = yield* Effect.flip(bluesky.createPost(token, "did:plc:herald", { text: "hello" }))
      assert.strictEqual(created.reason._tag, "OutcomeUnknown")
      // A blob alone is no post: its lost answer is retried.
      const uploaded = yield* Effect.flip(bluesky.uploadBlob(token, new Uint8Array([1]), "image/png"))
      assert.strictEqual(uploaded.reason._tag, "Transient")
    }))
})
