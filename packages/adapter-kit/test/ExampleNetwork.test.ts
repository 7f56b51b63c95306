import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer, Option, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { HttpClient, HttpClientResponse } from "effect/http"
import { AdapterSuite, ExampleNetwork } from "../src/testing.ts"

// The example network's inbox end to end: the adapter against its simulator over real HTTP, with people's
// comments and messages coming in through the kit's control routes.

/** The account's one post says whose it is, and no time: each test has its own account. */
const start = (context: AdapterSuite.Context, username: string) =>
  AdapterSuite.startInbox(context, username, { post: { text: `post of ${username}` } })

AdapterSuite.withHarness({ makeAdapter: ExampleNetwork.make, makeSimulator: ExampleNetwork.simulator })("example inbox", (it) => {
  const context = Effect.service(AdapterSuite.Harness)

  it.effect("the first fetch skips what was there; later ones bring each new comment and message once", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, published } = yield* start(ctx, "inbox_owner")
      const old = yield* AdapterSuite.control(ctx, "comments", { username: "inbox_owner", author: "early_bird", text: "Before Herald" })
      assert.strictEqual(old.status, 201)

      // As for an account just connected: a null cursor brings none of what is already there.
      const first = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: null })
      assert.deepStrictEqual([first.comments.length, first.messages.length], [0, 0])

      const comment = yield* AdapterSuite.control(ctx, "comments", { username: "inbox_owner", author: "carla", text: "Love this" })
      const message = yield* AdapterSuite.control(ctx, "messages", {
        username: "inbox_owner",
        author: "dan",
        text: "Can we talk?",
        attachments: 2
      })
      assert.deepStrictEqual([comment.status, message.status], [201, 201])

      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: first.cursor })
      assert.strictEqual(page.comments.length, 1)
      const received = page.comments[0]!
      assert.strictEqual(received.id, comment.body["id"])
      assert.strictEqual(received.text, "Love this")
      assert.strictEqual(received.author.username, "carla")
      assert.isString(received.author.id)
      assert.isNull(received.author.name)
      assert.strictEqual(received.postId, published.id)
      assert.isNull(received.replyTo)
      assert.strictEqual(received.permalink, `${published.url}#comment-${received.id}`)
      assert.isFalse(Number.isNaN(Date.parse(received.createdAt)))

      AdapterSuite.checkMessageArrived(page, message.body)

      yield* AdapterSuite.checkNothingNew(ctx, account, page.cursor, { sameCursor: true })
    }))

  it.effect("keeps one conversation per person, and the same id for a person across items", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor } = yield* start(ctx, "inbox_threads")
      yield* AdapterSuite.control(ctx, "messages", { username: "inbox_threads", author: "gus", text: "one" })
      yield* AdapterSuite.control(ctx, "messages", { username: "inbox_threads", author: "gus", text: "two" })
      yield* AdapterSuite.control(ctx, "messages", { username: "inbox_threads", author: "hana", text: "three" })
      yield* AdapterSuite.control(ctx, "comments", { username: "inbox_threads", author: "gus", text: "four" })
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })
      const [one, two, three] = page.messages
      assert.strictEqual(one!.conversationId, two!.conversationId)
      assert.notStrictEqual(one!.conversationId, three!.conversationId)
      assert.strictEqual(one!.from.id, page.comments[0]!.author.id)
      assert.notStrictEqual(one!.from.id, three!.from.id)
    }))

  it.effect("replies to a comment and answers a message; the simulator has both and later fetches bring them", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor, published } = yield* start(ctx, "inbox_replier")
      yield* AdapterSuite.control(ctx, "comments", { username: "inbox_replier", author: "ines", text: "Where is this?" })
      yield* AdapterSuite.control(ctx, "messages", { username: "inbox_replier", author: "jon", text: "Hello" })
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })
      const comment = page.comments[0]!
      const message = page.messages[0]!

      const { reply, stored } = yield* AdapterSuite.answerComment(ctx, { account, comment, text: "In Lisbon", postId: published.id })
      assert.strictEqual(stored.author.username, "inbox_replier")
      assert.strictEqual(reply.permalink, `${published.url}#comment-${reply.id}`)

      const { sent, kept } = yield* AdapterSuite.answerMessage(ctx, { account, conversationId: message.conversationId, text: "Hi Jon" })
      assert.strictEqual(kept.from.username, "inbox_replier")

      const later = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: page.cursor })
      assert.deepStrictEqual(later.comments.map((entry) => [entry.id, entry.author.username, entry.replyTo]), [
        [reply.id, "inbox_replier", comment.id]
      ])
      assert.deepStrictEqual(later.messages.map((entry) => [entry.id, entry.outgoing]), [[sent.id, true]])
    }))

  it.effect("refuses answers to what is not the account's, and honours the sandbox triggers", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor } = yield* start(ctx, "inbox_refused")
      yield* AdapterSuite.control(ctx, "comments", { username: "inbox_refused", author: "kim", text: "Hey" })
      const comment = (yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })).comments[0]!
      const unknown = yield* Effect.flip(AdapterSuite.inboxOf(ctx).replyToComment({ account, comment: { ...comment, id: "404" }, text: "x" }))
      assert.strictEqual(unknown.reason._tag, "Rejected")
      const nowhere = yield* Effect.flip(AdapterSuite.inboxOf(ctx).sendMessage({ account, conversationId: "404", text: "x" }))
      assert.strictEqual(nowhere.reason._tag, "Rejected")
      const failed = yield* Effect.flip(AdapterSuite.inboxOf(ctx).replyToComment({ account, comment, text: "no #sandbox-fail" }))
      assert.strictEqual(failed.reason._tag, "Rejected")
      const flaky = yield* Effect.flip(AdapterSuite.inboxOf(ctx).replyToComment({ account, comment, text: "wobbly #sandbox-flaky" }))
      assert.isTrue(flaky.retryable)
    }))

  it.effect("control routes answer 404 for an unknown username and 400 for a missing field", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      yield* AdapterSuite.connect(ctx, "inbox_control")
      for (const kind of ["comments", "messages"] as const) {
        const unknown = yield* AdapterSuite.control(ctx, kind, { username: "nobody_here", author: "lee", text: "hi" })
        assert.strictEqual(unknown.status, 404)
        assert.deepInclude(unknown.body["error"], { code: "not_found" })
        assert.include((unknown.body["error"] as { message: string }).message, "nobody_here")
        const missing = yield* AdapterSuite.control(ctx, kind, { username: "inbox_control", author: "lee" })
        assert.strictEqual(missing.status, 400)
        assert.deepInclude(missing.body["error"], { code: "invalid" })
      }
    }))
})

// The template's token expiry is on Effect's clock: a token answer read at a moment a test chose expires
// `expires_in` after it, not after the machine's time.
const tokenAnswer = Layer.succeed(
  HttpClient.HttpClient,
  HttpClient.make((request) =>
    Effect.succeed(HttpClientResponse.fromWeb(
      request,
      Response.json({ access_token: "at", refresh_token: "rt", expires_in: 7200 })
    )))
)

describe("example tokens", () => {
  it.effect("expire expires_in after the Clock's now", () =>
    Effect.gen(function*() {
      yield* TestClock.setTime(1_000_000)
      const adapter = yield* ExampleNetwork.make({
        apiBaseUrl: "http://example.test",
        authBaseUrl: "http://example.test",
        webBaseUrl: "http://example.test",
        clientId: "client",
        clientSecret: Redacted.make("secret")
      })
      const tokens = yield* adapter.oauth.exchange({ code: "code", codeVerifier: "verifier", redirectUri: "http://herald.test/cb" })
      assert.deepStrictEqual(tokens.expiresAt, Option.some(1_000_000 + 7_200_000))
    }).pipe(Effect.provide(tokenAnswer)))
})
