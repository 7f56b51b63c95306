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
}

const fake = (answer: (request: Seen) => Response | undefined) =>
  Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request, url) => {
      const response = answer({ method: request.method, url, authorization: request.headers["authorization"] })
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
        assert.strictEqual(`${request.url.origin}${request.url.pathname}`, "https://graph.facebook.com/v20.0/oauth/access_token")
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
      assert.strictEqual(seen[0]?.url.toString(), "https://graph.facebook.com/v20.0/1/feed")
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
})
