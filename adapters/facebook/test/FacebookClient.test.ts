import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { HttpClient, HttpClientError, HttpClientResponse } from "effect/http"
import * as FacebookClient from "../src/FacebookClient.ts"
import * as FacebookConfig from "../src/FacebookConfig.ts"

// The client against a fake `HttpClient`: what goes on the wire, and what a lost answer becomes.
const config = FacebookConfig.realConfig("client-id", Redacted.make("client-secret"))
const pageToken = Redacted.make("page-token")

interface Seen {
  readonly method: string
  readonly url: URL
  readonly authorization: string | undefined
  /** A JSON body as sent. */
  readonly json: unknown
}

const fake = (answer: (request: Seen) => Response | undefined) =>
  Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request, url) => {
      const json = request.body._tag === "Uint8Array" && request.body.contentType === "application/json"
        ? JSON.parse(new TextDecoder().decode(request.body.body))
        : undefined
      const response = answer({ method: request.method, url, authorization: request.headers["authorization"], json })
      return response === undefined
        ? Effect.fail(new HttpClientError.HttpClientError({ reason: new HttpClientError.TransportError({ request }) }))
        : Effect.succeed(HttpClientResponse.fromWeb(request, response))
    })
  )

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })

describe("FacebookClient", () => {
  it.effect("trades the user token for a long-lived one on graph.facebook.com", () =>
    Effect.gen(function*() {
      const client = yield* FacebookClient.make(config).pipe(Effect.provide(fake((request) => {
        assert.strictEqual(`${request.url.origin}${request.url.pathname}`, "https://graph.facebook.com/v27.0/oauth/access_token")
        assert.strictEqual(request.url.searchParams.get("grant_type"), "fb_exchange_token")
        assert.strictEqual(request.url.searchParams.get("fb_exchange_token"), "short")
        return json({ access_token: "long", token_type: "bearer", expires_in: 5_183_999 })
      })))
      const answer = yield* client.longLivedUserToken(Redacted.make("short"))
      assert.strictEqual(answer.access_token, "long")
    }))

  it.effect("posts to the Page's feed with the Page token in the header", () =>
    Effect.gen(function*() {
      const seen: Array<Seen> = []
      const client = yield* FacebookClient.make(config).pipe(Effect.provide(fake((request) => {
        seen.push(request)
        return json({ id: "1_2" })
      })))
      const id = yield* client.feedPost(pageToken, "1", { message: "Hello" })
      assert.strictEqual(id, "1_2")
      assert.strictEqual(seen[0]?.method, "POST")
      assert.strictEqual(seen[0]?.url.toString(), "https://graph.facebook.com/v27.0/1/feed")
      assert.strictEqual(seen[0]?.authorization, "Bearer page-token")
    }))

  it.effect("makes a lost feed answer an unknown outcome, and a lost photo upload transient", () =>
    Effect.gen(function*() {
      const client = yield* FacebookClient.make(config).pipe(Effect.provide(fake(() => undefined)))
      const feed = yield* Effect.flip(client.feedPost(pageToken, "1", { message: "Hello" }))
      assert.strictEqual(feed.reason._tag, "OutcomeUnknown")
      const photo = yield* Effect.flip(client.uploadPhoto(pageToken, "1", { url: "https://herald.example/a.jpg", published: "false" }))
      assert.strictEqual(photo.reason._tag, "Transient")
    }))

  it.effect("maps Graph error bodies through the table", () =>
    Effect.gen(function*() {
      const client = yield* FacebookClient.make(config).pipe(Effect.provide(fake(() =>
        json({ error: { message: "(#32) Page request limit reached", type: "OAuthException", code: 32 } }, 400)
      )))
      const error = yield* Effect.flip(client.recentPosts(pageToken, "1"))
      assert.strictEqual(error.reason._tag, "RateLimited")
    }))

  it.effect("reads every comment of a post, replies included, newest first", () =>
    Effect.gen(function*() {
      const client = yield* FacebookClient.make(config).pipe(Effect.provide(fake((request) => {
        assert.strictEqual(request.url.pathname, "/v27.0/1_2/comments")
        assert.strictEqual(request.url.searchParams.get("filter"), "stream")
        assert.strictEqual(request.url.searchParams.get("order"), "reverse_chronological")
        assert.strictEqual(request.url.searchParams.get("after"), "QVFI")
        assert.include(request.url.searchParams.get("fields") ?? "", "parent")
        return json({ data: [{ id: "2_3", message: "Hi", created_time: "2024-05-01T10:00:00+0000", from: { id: "9", name: "Ana" } }] })
      })))
      const answer = yield* client.comments(pageToken, "1_2", "QVFI")
      assert.deepStrictEqual(answer.data.map((comment) => comment.id), ["2_3"])
    }))

  it.effect("answers in Messenger through the Send API with a JSON body, and never resends a lost answer", () =>
    Effect.gen(function*() {
      const seen: Array<Seen> = []
      const client = yield* FacebookClient.make(config).pipe(Effect.provide(fake((request) => {
        seen.push(request)
        return json({ recipient_id: "77", message_id: "m_1" })
      })))
      assert.strictEqual(yield* client.sendMessage(pageToken, "1", "77", "Hello"), "m_1")
      assert.strictEqual(seen[0]?.url.toString(), "https://graph.facebook.com/v27.0/1/messages")
      assert.deepStrictEqual(seen[0]?.json, { recipient: { id: "77" }, messaging_type: "RESPONSE", message: { text: "Hello" } })
      const lost = yield* FacebookClient.make(config).pipe(Effect.provide(fake(() => undefined)))
      const error = yield* Effect.flip(lost.sendMessage(pageToken, "1", "77", "Hello"))
      assert.strictEqual(error.reason._tag, "OutcomeUnknown")
    }))
})
