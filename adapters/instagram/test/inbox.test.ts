import type { Adapter } from "@herald/adapter-kit"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { assert } from "@effect/vitest"
import { Effect } from "effect"
import * as InstagramAdapter from "../src/InstagramAdapter.ts"
import * as InstagramSimulator from "../src/InstagramSimulator.ts"

// The inbox against the simulator over real HTTP: comments and messages from people come in through the
// kit's control routes, the adapter reads them from the Graph paths Instagram documents.

/** The account's one post is a photo (Instagram posts need media); the first fetch must find nothing yet. */
const start = (context: AdapterSuite.Context, username: string) =>
  AdapterSuite.startInbox(context, username, {
    post: { text: `photo of ${username} ${Date.now()}`, media: [AdapterSuite.media.photo(context)] }
  }).pipe(Effect.tap(({ first }) =>
    Effect.sync(() => assert.deepStrictEqual([first.comments.length, first.messages.length], [0, 0]))
  ))

AdapterSuite.withHarness({ makeAdapter: InstagramAdapter.make, makeSimulator: InstagramSimulator.simulator })("instagram inbox", (it) => {
  const context = Effect.service(AdapterSuite.Harness)

  it.effect("the first fetch skips what was there; later ones bring each new comment and message once", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account } = yield* AdapterSuite.connect(ctx, "ig_inbox_owner")
      const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
        account,
        post: AdapterSuite.post({ text: `inbox ${Date.now()}`, media: [AdapterSuite.media.photo(ctx)] })
      })
      yield* AdapterSuite.control(ctx, "comments", { username: "ig_inbox_owner", author: "early_bird", text: "Before Herald", postId: published.id })
      yield* AdapterSuite.control(ctx, "messages", { username: "ig_inbox_owner", author: "early_dm", text: "Anyone there?" })

      const first = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: null })
      assert.deepStrictEqual([first.comments.length, first.messages.length], [0, 0])

      const comment = yield* AdapterSuite.control(ctx, "comments", {
        username: "ig_inbox_owner",
        author: "carla",
        text: "Love this",
        postId: published.id
      })
      const message = yield* AdapterSuite.control(ctx, "messages", { username: "ig_inbox_owner", author: "dan", text: "Can we talk?", attachments: 2 })
      assert.deepStrictEqual([comment.status, message.status], [201, 201])

      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: first.cursor })
      assert.strictEqual(page.comments.length, 1)
      const received = page.comments[0]!
      assert.strictEqual(received.id, comment.body["id"])
      assert.strictEqual(received.text, "Love this")
      assert.strictEqual(received.author.username, "carla")
      assert.strictEqual(received.author.id, (comment.body["author"] as Adapter.Person).id)
      assert.notStrictEqual(received.author.id, account.networkAccountId)
      assert.isNull(received.author.name)
      assert.strictEqual(received.postId, published.id)
      assert.isNull(received.replyTo)
      // Instagram's API has no link to one comment.
      assert.isNull(received.permalink)
      assert.isFalse(Number.isNaN(Date.parse(received.createdAt)))

      AdapterSuite.checkMessageArrived(page, message.body)

      const again = yield* AdapterSuite.checkNothingNew(ctx, account, page.cursor, { sameCursor: false })
      const still = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: again.cursor })
      assert.deepStrictEqual([still.comments.length, still.messages.length], [0, 0])
    }))

  it.effect("replies to a comment as the account, under the top-level comment, and reads the reply back as its own", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor, published } = yield* start(ctx, "ig_inbox_replier")
      yield* AdapterSuite.control(ctx, "comments", { username: "ig_inbox_replier", author: "ines", text: "Where is this?", postId: published.id })
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })
      const comment = page.comments[0]!

      const { reply } = yield* AdapterSuite.answerComment(ctx, { account, comment, text: "In Lisbon", postId: published.id })
      assert.isNull(reply.permalink)

      const later = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: page.cursor })
      assert.deepStrictEqual(
        later.comments.map((entry) => [entry.id, entry.author.id, entry.author.username, entry.replyTo, entry.postId]),
        [[reply.id, account.networkAccountId, "ig_inbox_replier", comment.id, published.id]]
      )

      // Instagram files an answer to a reply under the top-level comment.
      const nested = yield* AdapterSuite.inboxOf(ctx).replyToComment({ account, comment: later.comments[0]!, text: "Near the river" })
      assert.strictEqual(ctx.simulator.state.comments.get(nested.id)?.replyTo, comment.id)
    }))

  it.effect("answers a message in its conversation; the simulator keeps it as outgoing and the next fetch brings it", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor } = yield* start(ctx, "ig_inbox_messenger")
      yield* AdapterSuite.control(ctx, "messages", { username: "ig_inbox_messenger", author: "jon", text: "Hello" })
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })
      const message = page.messages[0]!

      const { sent } = yield* AdapterSuite.answerMessage(ctx, { account, conversationId: message.conversationId, text: "Hi Jon" })

      const later = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: page.cursor })
      assert.deepStrictEqual(
        later.messages.map((entry) => [entry.id, entry.outgoing, entry.from.id, entry.text]),
        [[sent.id, true, account.networkAccountId, "Hi Jon"]]
      )
      assert.deepStrictEqual(later.comments, [])

      const nowhere = yield* Effect.flip(AdapterSuite.inboxOf(ctx).sendMessage({ account, conversationId: "404", text: "x" }))
      assert.strictEqual(nowhere.reason._tag, "Rejected")
    }))

  it.effect("brings the first comment Herald posted as the account's own", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account } = yield* AdapterSuite.connect(ctx, "ig_inbox_first")
      const { cursor } = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: null })
      const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
        account,
        post: AdapterSuite.post({ text: `first ${Date.now()}`, media: [AdapterSuite.media.photo(ctx)], firstComment: "#herald" })
      })
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })
      assert.deepStrictEqual(page.comments.map((entry) => [entry.text, entry.author.id, entry.postId]), [
        ["#herald", account.networkAccountId, published.id]
      ])
    }))

  it.effect("maps an expired token as publishing does, and honours the sandbox triggers in answers", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor, published } = yield* start(ctx, "ig_inbox_errors")
      yield* AdapterSuite.control(ctx, "comments", { username: "ig_inbox_errors", author: "kim", text: "Hey", postId: published.id })
      const comment = (yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })).comments[0]!

      yield* AdapterSuite.checkAnswerErrors(ctx, { account, cursor, comment })
    }))

  it.effect("starts again from now when the cursor is not one it made", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, published } = yield* start(ctx, "ig_inbox_garbled")
      yield* AdapterSuite.control(ctx, "comments", { username: "ig_inbox_garbled", author: "lee", text: "Seen before", postId: published.id })
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: "not a cursor" })
      assert.deepStrictEqual([page.comments.length, page.messages.length], [0, 0])
      yield* AdapterSuite.control(ctx, "comments", { username: "ig_inbox_garbled", author: "lee", text: "New", postId: published.id })
      const next = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: page.cursor })
      assert.deepStrictEqual(next.comments.map((entry) => entry.text), ["New"])
    }))

  it.effect("refuses a comment for an account with no media, or on a post it does not have, saying why", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account } = yield* AdapterSuite.connect(ctx, "ig_no_media")
      const refused = yield* AdapterSuite.control(ctx, "comments", { username: "ig_no_media", author: "fan", text: "Hello?" })
      assert.strictEqual(refused.status, 409)
      const error = refused.body["error"] as { code: string; message: string }
      assert.strictEqual(error.code, "conflict")
      assert.include(error.message, "ig_no_media has no posts")
      assert.include(error.message, "publish a post to this account first")
      assert.strictEqual(ctx.simulator.state.commentsAfter(account.networkAccountId, 0).length, 0)

      const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
        account,
        post: AdapterSuite.post({ text: `now with media ${Date.now()}`, media: [AdapterSuite.media.photo(ctx)] })
      })
      const elsewhere = yield* AdapterSuite.control(ctx, "comments", { username: "ig_no_media", author: "fan", text: "Hi", postId: "17890000" })
      assert.strictEqual(elsewhere.status, 404)
      assert.deepInclude(elsewhere.body["error"], { code: "not_found" })
      const accepted = yield* AdapterSuite.control(ctx, "comments", { username: "ig_no_media", author: "fan", text: "Nice photo" })
      assert.strictEqual(accepted.status, 201)
      assert.strictEqual(accepted.body["postId"], published.id)
    }))
})
