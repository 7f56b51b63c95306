import { assert, describe, it } from "@effect/vitest"
import type { NetworkClient } from "@herald/adapter-kit"
import { Effect, Layer, Redacted } from "effect"
import { Headers, HttpClient, HttpClientError } from "effect/http"
import * as Errors from "../src/internal/errors.ts"
import * as ThreadsClient from "../src/ThreadsClient.ts"
import * as ThreadsConfig from "../src/ThreadsConfig.ts"

const refused = (status: number, body: unknown) =>
  Errors.refusal({
    status,
    body,
    headers: Headers.empty,
    path: "https://graph.threads.net/v1.0/me/threads",
    retryAfterMs: undefined,
    now: 0,
    call: "read"
  } satisfies NetworkClient.Refusal)

const reasonOf = (status: number, error: Record<string, unknown>) =>
  refused(status, { error: { type: "OAuthException", ...error } }).reason

/** A Threads that never answers: every call's answer is lost. */
const silent = Layer.succeed(
  HttpClient.HttpClient,
  HttpClient.make((request) =>
    Effect.fail(new HttpClientError.HttpClientError({ reason: new HttpClientError.TransportError({ request }) }))
  )
)

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
    assert.strictEqual(refused(502, "<html>").reason._tag, "Transient")
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

  it.effect("marks a publish whose answer was lost as of unknown outcome", () =>
    Effect.gen(function*() {
      const threads = yield* ThreadsClient.make(ThreadsConfig.realConfig("", Redacted.make(""))).pipe(Effect.provide(silent))
      const token = Redacted.make("access")
      const published = yield* Effect.flip(threads.publish(token, "1784", "9001"))
      assert.strictEqual(published.reason._tag, "OutcomeUnknown")
      // A container is only a draft: its lost answer is retried.
      const created = yield* Effect.flip(threads.createContainer(token, "1784", { media_type: "TEXT", text: "hello" }))
      assert.strictEqual(created.reason._tag, "Transient")
    }))
})
