import { AdapterSuite } from "@herald/adapter-kit/testing"
import { assert } from "@effect/vitest"
import { Effect } from "effect"
import * as FacebookAdapter from "../src/FacebookAdapter.ts"
import * as FacebookSimulator from "../src/FacebookSimulator.ts"

// The Page's inbox end to end: the adapter against the simulator over real HTTP, with people's comments
// and Messenger messages coming in through the kit's control routes.

/** A connected Page that has received one comment (on its post) and one message from `author`, as fetched. */
const received = (context: AdapterSuite.Context, username: string, author: string) =>
  Effect.gen(function*() {
    const { account, cursor, published } = yield* AdapterSuite.startInbox(context, username)
    yield* AdapterSuite.control(context, "comments", { username, author, text: `Comment from ${author}`, postId: published.id })
    yield* AdapterSuite.control(context, "messages", { username, author, text: `Message from ${author}` })
    const page = yield* AdapterSuite.inboxOf(context).fetch({ account, cursor })
    return { account, published, page, comment: page.comments[0]!, message: page.messages[0]! }
  })

AdapterSuite.withHarness({ makeAdapter: FacebookAdapter.make, makeSimulator: FacebookSimulator.simulator })("facebook inbox", (it) => {
  const context = Effect.service(AdapterSuite.Harness)

  it.effect("the first fetch skips what was there; later ones bring each new comment and message once", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, published } = yield* AdapterSuite.startInbox(ctx, "fb_inbox_owner")
      yield* AdapterSuite.control(ctx, "comments", { username: "fb_inbox_owner", author: "early_bird", text: "Before Herald", postId: published.id })
      yield* AdapterSuite.control(ctx, "messages", { username: "fb_inbox_owner", author: "early_dm", text: "Old message" })

      const first = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: null })
      assert.deepStrictEqual([first.comments.length, first.messages.length], [0, 0])
      assert.isString(first.cursor)

      const comment = yield* AdapterSuite.control(ctx, "comments", {
        username: "fb_inbox_owner",
        author: "carla",
        text: "Love this",
        postId: published.id
      })
      const message = yield* AdapterSuite.control(ctx, "messages", { username: "fb_inbox_owner", author: "dan", text: "Can we talk?", attachments: 2 })
      assert.deepStrictEqual([comment.status, message.status], [201, 201])

      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: first.cursor })
      assert.strictEqual(page.comments.length, 1)
      const received = page.comments[0]!
      assert.strictEqual(received.id, comment.body["id"])
      assert.strictEqual(received.text, "Love this")
      assert.strictEqual(received.postId, published.id)
      assert.isNull(received.replyTo)
      assert.strictEqual(received.author.username, "carla")
      assert.strictEqual(received.author.id, ctx.simulator.state.person({ username: "carla" }).id)
      assert.notStrictEqual(received.author.id, account.networkAccountId)
      assert.isTrue(received.permalink?.startsWith(published.url))
      assert.isFalse(Number.isNaN(Date.parse(received.createdAt)))

      AdapterSuite.checkMessageArrived(page, message.body)

      yield* AdapterSuite.checkNothingNew(ctx, account, page.cursor, { sameCursor: true })
    }))

  it.effect("brings a comment of the same second as one already fetched, and not the earlier one again", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor, published } = yield* AdapterSuite.startInbox(ctx, "fb_inbox_second")
      yield* AdapterSuite.control(ctx, "comments", { username: "fb_inbox_second", author: "eve", text: "one", postId: published.id })
      const first = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })
      yield* AdapterSuite.control(ctx, "comments", { username: "fb_inbox_second", author: "eve", text: "two", postId: published.id })
      const second = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: first.cursor })
      assert.deepStrictEqual(first.comments.map((entry) => entry.text), ["one"])
      assert.deepStrictEqual(second.comments.map((entry) => entry.text), ["two"])
    }))

  it.effect("replies as the Page and answers in Messenger; later fetches bring both as the Page's own", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, comment, message, page, published } = yield* received(ctx, "fb_inbox_replier", "ines")

      const { reply, stored } = yield* AdapterSuite.answerComment(ctx, { account, comment, text: "In Lisbon", postId: published.id })
      assert.strictEqual(reply.permalink, stored.permalink)

      const { sent } = yield* AdapterSuite.answerMessage(ctx, { account, conversationId: message.conversationId, text: "Hi Ines" })

      // A person answers the Page's reply: a reply to a reply.
      yield* AdapterSuite.control(ctx, "comments", { username: "fb_inbox_replier", author: "ines", text: "Thanks!", postId: published.id, replyTo: reply.id })

      const later = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: page.cursor })
      assert.deepStrictEqual(later.comments.map((entry) => [entry.text, entry.author.id === account.networkAccountId, entry.replyTo]), [
        ["In Lisbon", true, comment.id],
        ["Thanks!", false, reply.id]
      ])
      assert.deepStrictEqual(later.messages.map((entry) => [entry.id, entry.outgoing, entry.from.id === account.networkAccountId]), [
        [sent.id, true, true]
      ])
    }))

  it.effect("refuses what the network refuses, with the publishing reasons", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, comment, message } = yield* received(ctx, "fb_inbox_refused", "kim")

      const unknown = yield* Effect.flip(AdapterSuite.inboxOf(ctx).replyToComment({ account, comment: { ...comment, id: "404" }, text: "x" }))
      assert.strictEqual(unknown.reason._tag, "Rejected")
      const failed = yield* Effect.flip(AdapterSuite.inboxOf(ctx).replyToComment({ account, comment, text: "no #sandbox-fail" }))
      assert.strictEqual(failed.reason._tag, "Rejected")
      const flaky = yield* Effect.flip(AdapterSuite.inboxOf(ctx).sendMessage({
        account,
        conversationId: message.conversationId,
        text: `wobbly #sandbox-flaky ${Date.now()}`
      }))
      assert.isTrue(flaky.retryable)
    }))

  it.effect("an expired token asks for a new connection, as for publishing (Page tokens have no refresh)", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor } = yield* AdapterSuite.startInbox(ctx, "fb_inbox_expired")
      ctx.simulator.state.expire(account.networkAccountId)
      const error = yield* Effect.flip(AdapterSuite.inboxOf(ctx).fetch({ account, cursor }))
      assert.strictEqual(error.reason._tag, "NeedsReconnect")
    }))

  it.effect("a cursor it did not write starts afresh instead of failing", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, published } = yield* AdapterSuite.startInbox(ctx, "fb_inbox_garbage")
      yield* AdapterSuite.control(ctx, "comments", { username: "fb_inbox_garbage", author: "lee", text: "Hi", postId: published.id })
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: "not-a-cursor" })
      assert.deepStrictEqual([page.comments.length, page.messages.length], [0, 0])
      yield* AdapterSuite.control(ctx, "comments", { username: "fb_inbox_garbage", author: "lee", text: "Again", postId: published.id })
      const next = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: page.cursor })
      assert.deepStrictEqual(next.comments.map((entry) => entry.text), ["Again"])
    }))
})
