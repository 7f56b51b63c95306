import { assert, describe, it as unit } from "@effect/vitest"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { Effect } from "effect"
import * as Inbox from "../src/internal/inbox.ts"
import { XAdapter, XSimulator } from "../src/index.ts"

// X's inbox end to end: the adapter against its simulator over real HTTP, with people's replies and direct
// messages coming in through the kit's control routes.

AdapterSuite.withHarness({ makeAdapter: XAdapter.make, makeSimulator: XSimulator.simulator })("x inbox", (it) => {
  const context = Effect.service(AdapterSuite.Harness)

  it.effect("the first fetch skips what was there; later ones bring each new reply and message once", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account } = yield* AdapterSuite.connect(ctx, "x_inbox_owner")
      const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
        account,
        post: AdapterSuite.post({ text: `owned ${Date.now()}` })
      })
      yield* AdapterSuite.control(ctx, "comments", { username: "x_inbox_owner", author: "early_bird", text: "Before Herald" })
      yield* AdapterSuite.control(ctx, "messages", { username: "x_inbox_owner", author: "early_bird", text: "Old news" })

      const first = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: null })
      assert.deepStrictEqual([first.comments.length, first.messages.length], [0, 0])

      const comment = yield* AdapterSuite.control(ctx, "comments", {
        username: "x_inbox_owner",
        author: "carla",
        text: "Love this & that",
        postId: published.id
      })
      const message = yield* AdapterSuite.control(ctx, "messages", {
        username: "x_inbox_owner",
        author: "dan",
        text: "Can we talk?",
        attachments: 2
      })
      assert.deepStrictEqual([comment.status, message.status], [201, 201])

      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: first.cursor })
      assert.strictEqual(page.comments.length, 1)
      const received = page.comments[0]!
      assert.strictEqual(received.id, comment.body["id"])
      assert.strictEqual(received.text, "Love this & that")
      assert.strictEqual(received.author.username, "carla")
      assert.strictEqual(received.author.id, (comment.body["author"] as { id: string }).id)
      assert.strictEqual(received.author.name, "carla")
      assert.strictEqual(received.postId, published.id)
      assert.isNull(received.replyTo)
      assert.strictEqual(received.permalink, `${ctx.baseUrl}/sandbox/x/carla/status/${received.id}`)
      assert.strictEqual(received.createdAt, comment.body["createdAt"])

      AdapterSuite.checkMessageArrived(page, message.body)

      yield* AdapterSuite.checkNothingNew(ctx, account, page.cursor, { sameCursor: true })
    }))

  it.effect("names the comment a reply answers, on the post that started the conversation", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor, published } = yield* AdapterSuite.startInbox(ctx, "x_inbox_threads")
      const parent = yield* AdapterSuite.control(ctx, "comments", { username: "x_inbox_threads", author: "eve", text: "Where?" })
      const child = yield* AdapterSuite.control(ctx, "comments", {
        username: "x_inbox_threads",
        author: "finn",
        text: "Same question",
        replyTo: parent.body["id"]
      })
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })
      assert.deepStrictEqual(page.comments.map((comment) => [comment.id, comment.postId, comment.replyTo]), [
        [parent.body["id"], published.id, null],
        [child.body["id"], published.id, parent.body["id"]]
      ])
    }))

  it.effect("replies to a comment and answers a message; later fetches bring both as the account's", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor, published } = yield* AdapterSuite.startInbox(ctx, "x_inbox_replier")
      yield* AdapterSuite.control(ctx, "comments", { username: "x_inbox_replier", author: "ines", text: "Where is this?" })
      yield* AdapterSuite.control(ctx, "messages", { username: "x_inbox_replier", author: "jon", text: "Hello" })
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })
      const comment = page.comments[0]!
      const message = page.messages[0]!

      const { reply } = yield* AdapterSuite.answerComment(ctx, { account, comment, text: "In Lisbon", postId: published.id })
      assert.strictEqual(reply.permalink, `${ctx.baseUrl}/sandbox/x/x_inbox_replier/status/${reply.id}`)

      const { sent } = yield* AdapterSuite.answerMessage(ctx, { account, conversationId: message.conversationId, text: "Hi Jon" })

      const later = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: page.cursor })
      assert.deepStrictEqual(later.comments.map((entry) => [entry.id, entry.author.id, entry.postId, entry.replyTo]), [
        [reply.id, account.networkAccountId, published.id, comment.id]
      ])
      assert.deepStrictEqual(later.messages.map((entry) => [entry.id, entry.outgoing, entry.from.id]), [
        [sent.id, true, account.networkAccountId]
      ])
      const quiet = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: later.cursor })
      assert.deepStrictEqual([quiet.comments.length, quiet.messages.length], [0, 0])
    }))

  it.effect("does not read the account's own thread follow-ups and first comment as comments", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor } = yield* AdapterSuite.startInbox(ctx, "x_inbox_thread_author")
      const stamp = Date.now()
      yield* AdapterSuite.publishToEnd(ctx.adapter, {
        account,
        post: AdapterSuite.post({ text: `root ${stamp}`, thread: [`more ${stamp}`], firstComment: `note ${stamp}` })
      })
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })
      assert.deepStrictEqual(page.comments, [])
    }))

  it.effect("reads past X's page of 100, and each item once", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor } = yield* AdapterSuite.startInbox(ctx, "x_inbox_busy")
      for (let index = 0; index < 105; index++) {
        yield* AdapterSuite.control(ctx, "comments", { username: "x_inbox_busy", author: `fan_${index % 7}`, text: `comment ${index}` })
        yield* AdapterSuite.control(ctx, "messages", { username: "x_inbox_busy", author: `writer_${index % 5}`, text: `message ${index}` })
      }
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })
      assert.strictEqual(page.comments.length, 105)
      assert.strictEqual(new Set(page.comments.map((comment) => comment.id)).size, 105)
      assert.strictEqual(page.comments[0]!.text, "comment 0")
      assert.strictEqual(page.messages.length, 105)
      assert.strictEqual(page.messages.at(-1)!.text, "message 104")
      yield* AdapterSuite.control(ctx, "messages", { username: "x_inbox_busy", author: "writer_1", text: "one more" })
      const next = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: page.cursor })
      assert.deepStrictEqual(next.messages.map((message) => message.text), ["one more"])
      assert.deepStrictEqual(next.comments, [])
    }))

  it.effect("maps errors as publishing does: expired token, refusals, sandbox triggers", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor } = yield* AdapterSuite.startInbox(ctx, "x_inbox_refused")
      yield* AdapterSuite.control(ctx, "comments", { username: "x_inbox_refused", author: "kim", text: "Hey" })
      const comment = (yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })).comments[0]!

      const unknown = yield* Effect.flip(AdapterSuite.inboxOf(ctx).replyToComment({ account, comment: { ...comment, id: "404" }, text: "x" }))
      assert.strictEqual(unknown.reason._tag, "Rejected")
      const nowhere = yield* Effect.flip(AdapterSuite.inboxOf(ctx).sendMessage({ account, conversationId: "404", text: "x" }))
      assert.strictEqual(nowhere.reason._tag, "Rejected")
      const failed = yield* Effect.flip(AdapterSuite.inboxOf(ctx).replyToComment({ account, comment, text: "no #sandbox-fail" }))
      assert.strictEqual(failed.reason._tag, "Rejected")
      const flaky = yield* Effect.flip(AdapterSuite.inboxOf(ctx).replyToComment({ account, comment, text: "wobbly #sandbox-flaky" }))
      assert.strictEqual(flaky.reason._tag, "Transient")

      ctx.simulator.state.expire(account.networkAccountId)
      const expired = yield* Effect.flip(AdapterSuite.inboxOf(ctx).fetch({ account, cursor }))
      assert.strictEqual(expired.reason._tag, "AuthExpired")
      const first = yield* Effect.flip(AdapterSuite.inboxOf(ctx).fetch({ account, cursor: null }))
      assert.strictEqual(first.reason._tag, "AuthExpired")
    }))

  it.effect("starts from now again on a cursor it did not write", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account } = yield* AdapterSuite.startInbox(ctx, "x_inbox_foreign")
      yield* AdapterSuite.control(ctx, "comments", { username: "x_inbox_foreign", author: "lou", text: "Before the reset" })
      const reset = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: "after=latest" })
      assert.deepStrictEqual([reset.comments.length, reset.messages.length], [0, 0])
      yield* AdapterSuite.control(ctx, "comments", { username: "x_inbox_foreign", author: "lou", text: "After the reset" })
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: reset.cursor })
      assert.deepStrictEqual(page.comments.map((comment) => comment.text), ["After the reset"])
    }))

  it.effect("asks for the scopes direct messages need", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const url = new URL(ctx.adapter.oauth.authorizeUrl({ state: "s", redirectUri: ctx.redirectUri, codeChallenge: "c" }))
      const asked = url.searchParams.get("scope")!.split(" ")
      for (const scope of ["tweet.read", "users.read", "tweet.write", "dm.read", "dm.write"]) assert.include(asked, scope)
    }))
})

describe("x inbox cursor", () => {
  unit("round-trips, and refuses a cursor it did not write", () => {
    const cursor = { mentions: "1900000000000000001", posts: null, messages: "42" }
    assert.deepStrictEqual(Inbox.decodeCursor(Inbox.encodeCursor(cursor)), cursor)
    assert.isUndefined(Inbox.decodeCursor("12345"))
    assert.isUndefined(Inbox.decodeCursor("{\"mentions\":1}"))
  })

  unit("orders X's ids as numbers too large for JavaScript's", () => {
    assert.isTrue(Inbox.isNewer("1900000000000000001", "1900000000000000000"))
    assert.isTrue(Inbox.isNewer("10000000000000000000", "9999999999999999999"))
    assert.isFalse(Inbox.isNewer("42", "42"))
  })
})
