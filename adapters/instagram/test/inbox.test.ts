import type { Adapter } from "@herald/adapter-kit"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { assert, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import * as InstagramAdapter from "../src/InstagramAdapter.ts"
import * as InstagramSimulator from "../src/InstagramSimulator.ts"

// The inbox against the simulator over real HTTP: comments and messages from people come in through the
// kit's control routes, the adapter reads them from the Graph paths Instagram documents.

const control = (context: AdapterSuite.Context, kind: "comments" | "messages", body: Record<string, unknown>) =>
  Effect.promise(async () => {
    const response = await fetch(`${context.baseUrl}/sandbox/${context.simulator.network}/_control/${kind}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body)
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  })

const inbox = (context: AdapterSuite.Context): Adapter.InboxHooks => {
  assert.isDefined(context.adapter.inbox, "the Instagram adapter has no inbox")
  return context.adapter.inbox!
}

/** A connected account with one published photo, and the cursor of its first (null-cursor) fetch. */
const start = (context: AdapterSuite.Context, username: string) =>
  Effect.gen(function*() {
    const { account } = yield* AdapterSuite.connect(context, username)
    const published = yield* AdapterSuite.publishToEnd(context.adapter, {
      account,
      post: AdapterSuite.post({ text: `photo of ${username} ${Date.now()}`, media: [AdapterSuite.media.photo(context)] })
    })
    const first = yield* inbox(context).fetch({ account, cursor: null })
    assert.deepStrictEqual([first.comments.length, first.messages.length], [0, 0])
    return { account, published, cursor: first.cursor }
  })

layer(
  AdapterSuite.harness({ makeAdapter: InstagramAdapter.make, makeSimulator: InstagramSimulator.simulator }),
  { timeout: Duration.minutes(2), excludeTestServices: true }
)("instagram inbox", (it) => {
  const context = Effect.service(AdapterSuite.Harness)

  it.effect("the first fetch skips what was there; later ones bring each new comment and message once", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account } = yield* AdapterSuite.connect(ctx, "ig_inbox_owner")
      const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
        account,
        post: AdapterSuite.post({ text: `inbox ${Date.now()}`, media: [AdapterSuite.media.photo(ctx)] })
      })
      yield* control(ctx, "comments", { username: "ig_inbox_owner", author: "early_bird", text: "Before Herald", postId: published.id })
      yield* control(ctx, "messages", { username: "ig_inbox_owner", author: "early_dm", text: "Anyone there?" })

      const first = yield* inbox(ctx).fetch({ account, cursor: null })
      assert.deepStrictEqual([first.comments.length, first.messages.length], [0, 0])

      const comment = yield* control(ctx, "comments", {
        username: "ig_inbox_owner",
        author: "carla",
        text: "Love this",
        postId: published.id
      })
      const message = yield* control(ctx, "messages", { username: "ig_inbox_owner", author: "dan", text: "Can we talk?", attachments: 2 })
      assert.deepStrictEqual([comment.status, message.status], [201, 201])

      const page = yield* inbox(ctx).fetch({ account, cursor: first.cursor })
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

      assert.strictEqual(page.messages.length, 1)
      const arrived = page.messages[0]!
      assert.strictEqual(arrived.id, message.body["id"])
      assert.strictEqual(arrived.conversationId, message.body["conversationId"])
      assert.strictEqual(arrived.text, "Can we talk?")
      assert.strictEqual(arrived.from.username, "dan")
      assert.strictEqual(arrived.attachments, 2)
      assert.isFalse(arrived.outgoing)
      assert.isFalse(Number.isNaN(Date.parse(arrived.createdAt)))

      const again = yield* inbox(ctx).fetch({ account, cursor: page.cursor })
      assert.deepStrictEqual([again.comments.length, again.messages.length], [0, 0])
      const still = yield* inbox(ctx).fetch({ account, cursor: again.cursor })
      assert.deepStrictEqual([still.comments.length, still.messages.length], [0, 0])
    }))

  it.effect("replies to a comment as the account, under the top-level comment, and reads the reply back as its own", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor, published } = yield* start(ctx, "ig_inbox_replier")
      yield* control(ctx, "comments", { username: "ig_inbox_replier", author: "ines", text: "Where is this?", postId: published.id })
      const page = yield* inbox(ctx).fetch({ account, cursor })
      const comment = page.comments[0]!

      const reply = yield* inbox(ctx).replyToComment({ account, comment, text: "In Lisbon" })
      assert.isNull(reply.permalink)
      const stored = ctx.simulator.state.comments.get(reply.id)
      assert.isDefined(stored)
      assert.strictEqual(stored!.replyTo, comment.id)
      assert.strictEqual(stored!.postId, published.id)
      assert.strictEqual(stored!.author.id, account.networkAccountId)

      const later = yield* inbox(ctx).fetch({ account, cursor: page.cursor })
      assert.deepStrictEqual(
        later.comments.map((entry) => [entry.id, entry.author.id, entry.author.username, entry.replyTo, entry.postId]),
        [[reply.id, account.networkAccountId, "ig_inbox_replier", comment.id, published.id]]
      )

      // Instagram files an answer to a reply under the top-level comment.
      const nested = yield* inbox(ctx).replyToComment({ account, comment: later.comments[0]!, text: "Near the river" })
      assert.strictEqual(ctx.simulator.state.comments.get(nested.id)?.replyTo, comment.id)
    }))

  it.effect("answers a message in its conversation; the simulator keeps it as outgoing and the next fetch brings it", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor } = yield* start(ctx, "ig_inbox_messenger")
      yield* control(ctx, "messages", { username: "ig_inbox_messenger", author: "jon", text: "Hello" })
      const page = yield* inbox(ctx).fetch({ account, cursor })
      const message = page.messages[0]!

      const sent = yield* inbox(ctx).sendMessage({ account, conversationId: message.conversationId, text: "Hi Jon" })
      const kept = ctx.simulator.state.messagesAfter(account.networkAccountId, 0).find((entry) => entry.id === sent.id)
      assert.isDefined(kept)
      assert.isTrue(kept!.outgoing)
      assert.strictEqual(kept!.conversationId, message.conversationId)

      const later = yield* inbox(ctx).fetch({ account, cursor: page.cursor })
      assert.deepStrictEqual(
        later.messages.map((entry) => [entry.id, entry.outgoing, entry.from.id, entry.text]),
        [[sent.id, true, account.networkAccountId, "Hi Jon"]]
      )
      assert.deepStrictEqual(later.comments, [])

      const nowhere = yield* Effect.flip(inbox(ctx).sendMessage({ account, conversationId: "404", text: "x" }))
      assert.strictEqual(nowhere.reason._tag, "Rejected")
    }))

  it.effect("brings the first comment Herald posted as the account's own", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account } = yield* AdapterSuite.connect(ctx, "ig_inbox_first")
      const { cursor } = yield* inbox(ctx).fetch({ account, cursor: null })
      const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
        account,
        post: AdapterSuite.post({ text: `first ${Date.now()}`, media: [AdapterSuite.media.photo(ctx)], firstComment: "#herald" })
      })
      const page = yield* inbox(ctx).fetch({ account, cursor })
      assert.deepStrictEqual(page.comments.map((entry) => [entry.text, entry.author.id, entry.postId]), [
        ["#herald", account.networkAccountId, published.id]
      ])
    }))

  it.effect("maps an expired token as publishing does, and honours the sandbox triggers in answers", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor, published } = yield* start(ctx, "ig_inbox_errors")
      yield* control(ctx, "comments", { username: "ig_inbox_errors", author: "kim", text: "Hey", postId: published.id })
      const comment = (yield* inbox(ctx).fetch({ account, cursor })).comments[0]!

      const failed = yield* Effect.flip(inbox(ctx).replyToComment({ account, comment, text: "no #sandbox-fail" }))
      assert.strictEqual(failed.reason._tag, "Rejected")
      const flaky = yield* Effect.flip(inbox(ctx).replyToComment({ account, comment, text: "wobbly #sandbox-flaky" }))
      assert.isTrue(flaky.retryable)
      const unknown = yield* Effect.flip(inbox(ctx).replyToComment({ account, comment: { ...comment, id: "404" }, text: "x" }))
      assert.strictEqual(unknown.reason._tag, "Rejected")

      ctx.simulator.state.expire(account.networkAccountId)
      const expired = yield* Effect.flip(inbox(ctx).fetch({ account, cursor }))
      assert.strictEqual(expired.reason._tag, "AuthExpired")
      const replyExpired = yield* Effect.flip(inbox(ctx).replyToComment({ account, comment, text: "late" }))
      assert.strictEqual(replyExpired.reason._tag, "AuthExpired")
    }))

  it.effect("starts again from now when the cursor is not one it made", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, published } = yield* start(ctx, "ig_inbox_garbled")
      yield* control(ctx, "comments", { username: "ig_inbox_garbled", author: "lee", text: "Seen before", postId: published.id })
      const page = yield* inbox(ctx).fetch({ account, cursor: "not a cursor" })
      assert.deepStrictEqual([page.comments.length, page.messages.length], [0, 0])
      yield* control(ctx, "comments", { username: "ig_inbox_garbled", author: "lee", text: "New", postId: published.id })
      const next = yield* inbox(ctx).fetch({ account, cursor: page.cursor })
      assert.deepStrictEqual(next.comments.map((entry) => entry.text), ["New"])
    }))
})
