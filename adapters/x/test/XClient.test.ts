import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { HttpClient, HttpClientError, HttpClientResponse } from "effect/http"
import { TestClock } from "effect/testing"
import * as XClient from "../src/XClient.ts"
import * as XConfig from "../src/XConfig.ts"

// The client against a fake `HttpClient`: what a lost answer becomes, a 2xx that refuses, and the wait X's
// reset header names.
const config = XConfig.realConfig("client-id", Redacted.make("client-secret"))
const token = Redacted.make("user-token")

interface Seen {
  readonly url: URL
  readonly contentType: string | undefined
}

const fake = (answer: (request: Seen) => Response | undefined) =>
  Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request, url) => {
      const contentType = request.body._tag === "FormData"
        ? "multipart/form-data"
        : "contentType" in request.body
        ? request.body.contentType
        : undefined
      const response = answer({ url, contentType })
      return response === undefined
        ? Effect.fail(new HttpClientError.HttpClientError({ reason: new HttpClientError.TransportError({ request }) }))
        : Effect.succeed(HttpClientResponse.fromWeb(request, response))
    })
  )

const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } })

describe("XClient", () => {
  it.effect("makes a lost post's answer an unknown outcome, and a lost read transient", () =>
    Effect.gen(function*() {
      const client = yield* XClient.make(config).pipe(Effect.provide(fake(() => undefined)))
      const post = yield* Effect.flip(client.createTweet(token, { text: "Hello" }))
      assert.strictEqual(post.reason._tag, "OutcomeUnknown")
      const message = yield* Effect.flip(client.sendDirectMessage(token, "1-2", "Hello"))
      assert.strictEqual(message.reason._tag, "OutcomeUnknown")
      const me = yield* Effect.flip(client.me(token))
      assert.strictEqual(me.reason._tag, "Transient")
    }))

  it.effect("reads a 200 carrying only errors as X refusing the post, in X's words", () =>
    Effect.gen(function*() {
      const client = yield* XClient.make(config).pipe(Effect.provide(fake(() =>
        json({ errors: [{ title: "Forbidden", detail: "You are not permitted to reply to this post." }] })
      )))
      const error = yield* Effect.flip(client.createTweet(token, { text: "Hello" }))
      assert.strictEqual(error.reason._tag, "Rejected")
      assert.include(error.reason.message, "not permitted to reply")
    }))

  it.effect("waits until x-rate-limit-reset, epoch seconds", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(940_000)
      const client = yield* XClient.make(config).pipe(Effect.provide(fake(() =>
        json({ title: "Too Many Requests", detail: "Too Many Requests" }, 429, { "x-rate-limit-reset": "1000" })
      )))
      const error = yield* Effect.flip(client.createTweet(token, { text: "Hello" }))
      assert.strictEqual(error.reason._tag, "RateLimited")
      assert.strictEqual(error.retryAfterMs, 60_000)
    }))

  it.effect("sends a segment as a binary form through the same client", () =>
    Effect.gen(function*() {
      const seen: Array<Seen> = []
      const client = yield* XClient.make(config).pipe(Effect.provide(fake((request) => {
        seen.push(request)
        return request.url.pathname.endsWith("/append") ? new Response(null, { status: 204 }) : json({}, 400)
      })))
      yield* client.appendUpload(token, "77", 0, new Uint8Array([1, 2, 3]))
      assert.deepStrictEqual(seen.map((request) => [request.url.pathname, request.contentType]), [
        ["/2/media/upload/77/append", "multipart/form-data"]
      ])
    }))
})
