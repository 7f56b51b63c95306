import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { HttpClient, HttpClientError, HttpClientResponse } from "effect/http"
import * as InstagramClient from "../src/InstagramClient.ts"
import * as InstagramConfig from "../src/InstagramConfig.ts"
import * as Inbox from "../src/internal/inbox.ts"

// The client against a fake `HttpClient`: what goes on the wire, and what a lost answer becomes.
const config = InstagramConfig.realConfig("client-id", Redacted.make("client-secret"))
const token = Redacted.make("long-lived-token")

const fake = (answer: (request: { url: string; urlParams: URLSearchParams; headers: Record<string, string> }) => Response | undefined) =>
  Layer.succeed(
    HttpClient.HttpClient,
    HttpClient.make((request, url) => {
      const response = answer({ url: url.toString(), urlParams: url.searchParams, headers: request.headers })
      return response === undefined
        ? Effect.fail(new HttpClientError.HttpClientError({ reason: new HttpClientError.TransportError({ request }) }))
        : Effect.succeed(HttpClientResponse.fromWeb(request, response))
    })
  )

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })

describe("InstagramClient", () => {
  it.effect("calls graph.instagram.com with the token in the header, not the URL", () =>
    Effect.gen(function*() {
      const seen: Array<{ url: string; authorization: string | undefined }> = []
      const client = yield* InstagramClient.make(config).pipe(Effect.provide(fake((request) => {
        seen.push({ url: request.url, authorization: request.headers["authorization"] })
        return json({ user_id: 17841400000000000, username: "herald", name: "Herald" })
      })))
      const me = yield* client.me(token)
      assert.strictEqual(me.username, "herald")
      assert.strictEqual(seen[0]?.url, "https://graph.instagram.com/v27.0/me?fields=user_id%2Cusername%2Cname%2Cprofile_picture_url")
      assert.strictEqual(seen[0]?.authorization, "Bearer long-lived-token")
    }))

  it.effect("exchanges a short-lived token through the ig_exchange_token grant", () =>
    Effect.gen(function*() {
      const client = yield* InstagramClient.make(config).pipe(Effect.provide(fake((request) => {
        assert.strictEqual(request.url.split("?")[0], "https://graph.instagram.com/access_token")
        assert.strictEqual(request.urlParams.get("grant_type"), "ig_exchange_token")
        assert.strictEqual(request.urlParams.get("client_secret"), "client-secret")
        return json({ access_token: "long", token_type: "bearer", expires_in: 5_184_000 })
      })))
      const answer = yield* client.longLivedToken(Redacted.make("short"))
      assert.strictEqual(answer.expires_in, 5_184_000)
    }))

  it.effect("makes a lost media_publish answer an unknown outcome, and a lost status read transient", () =>
    Effect.gen(function*() {
      const client = yield* InstagramClient.make(config).pipe(Effect.provide(fake(() => undefined)))
      const publish = yield* Effect.flip(client.publishContainer(token, "1784", "9001"))
      assert.strictEqual(publish.reason._tag, "OutcomeUnknown")
      const status = yield* Effect.flip(client.containerStatus(token, "9001"))
      assert.strictEqual(status.reason._tag, "Transient")
    }))

  it.effect("maps Graph error bodies through the table", () =>
    Effect.gen(function*() {
      const client = yield* InstagramClient.make(config).pipe(Effect.provide(fake(() =>
        json({ error: { message: "Session has expired", type: "OAuthException", code: 190, error_subcode: 463 } }, 400)
      )))
      const error = yield* Effect.flip(client.createContainer(token, "1784", { image_url: "https://herald.example/a.jpg" }))
      assert.strictEqual(error.reason._tag, "AuthExpired")
    }))

  it.effect("reads comments from the documented edges, and still does when messages are not permitted", () =>
    Effect.gen(function*() {
      const seen: Array<string> = []
      const client = yield* InstagramClient.make(config).pipe(Effect.provide(fake((request) => {
        const path = new URL(request.url).pathname
        seen.push(`${path}?${request.urlParams.get("fields")}`)
        if (path === "/v27.0/me/media") return json({ data: [{ id: "m1", comments_count: 1 }, { id: "m2", comments_count: 0 }] })
        if (path === "/v27.0/m1/comments") {
          return json({
            data: [{
              id: "c1",
              text: "Nice",
              timestamp: "2030-01-01T00:00:00+0000",
              from: { id: "igsid-1", username: "fan" },
              replies: { data: [{ id: "c2", text: "Thanks", timestamp: "2030-01-01T00:00:05+0000", from: { id: "1784", username: "herald" }, parent_id: "c1" }] }
            }]
          })
        }
        // An account connected before Herald asked for instagram_business_manage_messages.
        return json({ error: { message: "(#10) Application does not have permission for this action", type: "OAuthException", code: 10 } }, 400)
      })))
      const inbox = Inbox.make(client)
      const account = { networkAccountId: "1784", username: "herald", accessToken: token }
      const first = yield* inbox.fetch({ account, cursor: null })
      const page = yield* inbox.fetch({ account, cursor: JSON.stringify({ comments: { t: 0, seen: {} }, messages: { t: 0, seen: {} } }) })
      assert.deepStrictEqual(page.comments.map((comment) => [comment.id, comment.replyTo, comment.author.id, comment.postId]), [
        ["c1", null, "igsid-1", "m1"],
        ["c2", "c1", "1784", "m1"]
      ])
      assert.deepStrictEqual(page.messages, [])
      assert.include(page.cursor, `"messages":{"t":0,"seen":{}}`)
      assert.deepStrictEqual(yield* inbox.fetch({ account, cursor: first.cursor }).pipe(Effect.map((again) => again.comments)), [])
      assert.include(seen, "/v27.0/m1/comments?id,text,timestamp,username,from,parent_id,replies{id,text,timestamp,username,from,parent_id}")
      assert.notInclude(seen.join(" "), "/v27.0/m2/comments")
    }))
})
