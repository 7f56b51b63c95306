import { assert, describe, it } from "@effect/vitest"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { Effect, Redacted } from "effect"
import { ThreadsAdapter, ThreadsSimulator } from "../src/index.ts"
import * as Inbox from "../src/internal/inbox.ts"

// Threads' inbox end to end: the adapter against its simulator over real HTTP, with people's replies coming
// in through the kit's control routes. Threads has replies and no DMs.

AdapterSuite.withHarness({ makeAdapter: ThreadsAdapter.make, makeSimulator: ThreadsSimulator.simulator })("threads inbox", (it) => {
  const context = Effect.service(AdapterSuite.Harness)

  it.effect("the first fetch skips what was there; later ones bring each new reply once, with its fields", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, published } = yield* AdapterSuite.startInbox(ctx, "inbox_owner")
      const old = yield* AdapterSuite.control(ctx, "comments", {
        username: "inbox_owner",
        author: "early_bird",
        text: "Before Herald",
        postId: published.id
      })
      assert.strictEqual(old.status, 201)

      const first = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: null })
      assert.deepStrictEqual([first.comments.length, first.messages.length], [0, 0])
      assert.isString(first.cursor)

      const comment = yield* AdapterSuite.control(ctx, "comments", {
        username: "inbox_owner",
        author: "carla",
        text: "Love this",
        postId: published.id
      })
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: first.cursor })
      assert.strictEqual(page.comments.length, 1)
      const received = page.comments[0]!
      assert.strictEqual(received.id, comment.body["id"])
      assert.strictEqual(received.text, "Love this")
      assert.strictEqual(received.author.username, "carla")
      assert.strictEqual(received.author.id, "carla")
      assert.notStrictEqual(received.author.id, account.networkAccountId)
      assert.strictEqual(received.postId, published.id)
      assert.isNull(received.replyTo)
      assert.strictEqual(received.permalink, comment.body["permalink"])
      assert.isFalse(Number.isNaN(Date.parse(received.createdAt)))
      assert.deepStrictEqual(page.messages, [])

      yield* AdapterSuite.checkNothingNew(ctx, account, page.cursor, { sameCursor: true })
    }))

  it.effect("a reply in the same second as the cursor still arrives, and only once", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, published, cursor } = yield* AdapterSuite.startInbox(ctx, "inbox_second")
      const texts: Array<string> = []
      let current = cursor
      for (const text of ["one", "two", "three"]) {
        yield* AdapterSuite.control(ctx, "comments", { username: "inbox_second", author: "fast", text, postId: published.id })
        const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: current })
        texts.push(...page.comments.map((entry) => entry.text))
        current = page.cursor
      }
      assert.deepStrictEqual(texts, ["one", "two", "three"])
    }))

  it.effect("reads every page of a busy post, oldest first", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, published, cursor } = yield* AdapterSuite.startInbox(ctx, "inbox_busy")
      const count = ThreadsAdapter.inboxBounds.pageSize + 10
      for (let index = 0; index < count; index++) {
        yield* AdapterSuite.control(ctx, "comments", { username: "inbox_busy", author: `fan${index}`, text: `n${index}`, postId: published.id })
      }
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })
      assert.deepStrictEqual(page.comments.map((entry) => entry.text), Array.from({ length: count }, (_, index) => `n${index}`))
      assert.strictEqual(new Set(page.comments.map((entry) => entry.id)).size, count)
      const again = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: page.cursor })
      assert.strictEqual(again.comments.length, 0)
    }))

  it.effect("a reply to a reply names its parent", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, published, cursor } = yield* AdapterSuite.startInbox(ctx, "inbox_nested")
      const parent = yield* AdapterSuite.control(ctx, "comments", { username: "inbox_nested", author: "ann", text: "top", postId: published.id })
      yield* AdapterSuite.control(ctx, "comments", {
        username: "inbox_nested",
        author: "bob",
        text: "below",
        postId: published.id,
        replyTo: parent.body["id"]
      })
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })
      assert.deepStrictEqual(page.comments.map((entry) => [entry.text, entry.postId, entry.replyTo]), [
        ["top", published.id, null],
        ["below", published.id, parent.body["id"]]
      ])
    }))

  it.effect("replies to a comment; the simulator keeps it and the next fetch brings it as the account's", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, published, cursor } = yield* AdapterSuite.startInbox(ctx, "inbox_replier")
      yield* AdapterSuite.control(ctx, "comments", { username: "inbox_replier", author: "ines", text: "Where is this?", postId: published.id })
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })
      const comment = page.comments[0]!

      const { reply, stored } = yield* AdapterSuite.answerComment(ctx, { account, comment, text: "In Lisbon", postId: published.id })
      assert.strictEqual(stored.text, "In Lisbon")
      assert.strictEqual(reply.permalink, stored.permalink)

      const later = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: page.cursor })
      assert.deepStrictEqual(later.comments.map((entry) => [entry.id, entry.author.id, entry.replyTo, entry.postId]), [
        [reply.id, account.networkAccountId, comment.id, published.id]
      ])
    }))

  it.effect("the first comment Herald published comes back as the account's own", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account } = yield* AdapterSuite.connect(ctx, "inbox_first")
      const { cursor } = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: null })
      const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
        account,
        post: AdapterSuite.post({ text: `with a first comment ${Date.now()}`, firstComment: "link in here" })
      })
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })
      assert.deepStrictEqual(page.comments.map((entry) => [entry.text, entry.author.id, entry.postId, entry.replyTo]), [
        ["link in here", account.networkAccountId, published.id, null]
      ])
    }))

  it.effect("has no DMs: none are read, and sending one fails for good", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor } = yield* AdapterSuite.startInbox(ctx, "inbox_nodm")
      yield* AdapterSuite.checkNoMessages(ctx, {
        account,
        cursor,
        message: { username: "inbox_nodm", author: "dan", text: "Can we talk?" }
      })
    }))

  it.effect("maps an expired token to AuthExpired, as for publishing, and honours the sandbox triggers", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, published, cursor } = yield* AdapterSuite.startInbox(ctx, "inbox_errors")
      yield* AdapterSuite.control(ctx, "comments", { username: "inbox_errors", author: "kim", text: "Hey", postId: published.id })
      const comment = (yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })).comments[0]!
      yield* AdapterSuite.checkAnswerErrors(ctx, { account, cursor, comment })
    }))
})

describe("threads inbox cursor", () => {
  const reply = (id: string, timestamp: string) => ({ id, timestamp })

  it("round-trips and refuses what it did not write", () => {
    const cursor = { seconds: 1718738240, ids: ["17", "18"] }
    assert.deepStrictEqual(Inbox.decodeCursor(Inbox.encodeCursor(cursor)), cursor)
    assert.deepStrictEqual(Inbox.decodeCursor(Inbox.encodeCursor(Inbox.start)), Inbox.start)
    assert.isUndefined(Inbox.decodeCursor("2024-06-18"))
  })

  it("moves to the newest second and keeps the ids seen in it", () => {
    const cursor = Inbox.advance(Inbox.start, [
      reply("1", "2024-06-18T19:17:19+0000"),
      reply("2", "2024-06-18T19:17:20+0000"),
      reply("3", "2024-06-18T19:17:20+0000")
    ])
    assert.deepStrictEqual(cursor, { seconds: 1718738240, ids: ["2", "3"] })
    assert.isFalse(Inbox.isNew(cursor, reply("3", "2024-06-18T19:17:20+0000")))
    assert.isTrue(Inbox.isNew(cursor, reply("4", "2024-06-18T19:17:20+0000")))
    assert.isFalse(Inbox.isNew(cursor, reply("0", "2024-06-18T19:17:19+0000")))
    assert.isTrue(Inbox.isOlder(cursor, reply("0", "2024-06-18T19:17:19+0000")))
    assert.deepStrictEqual(Inbox.advance(cursor, [reply("4", "2024-06-18T19:17:20+0000")]).ids, ["2", "3", "4"])
  })

  it("makes a top-level reply's parent null and a private author distinct", () => {
    const account = { networkAccountId: "9", username: "me", accessToken: Redacted.make("token") }
    const comment = Inbox.toComment(account, "100", {
      id: "5",
      timestamp: "2024-06-18T19:17:20+0000",
      root_post: { id: "100" },
      replied_to: { id: "100" }
    })
    assert.isNull(comment.replyTo)
    assert.strictEqual(comment.author.id, "private:5")
    assert.strictEqual(comment.text, "")
    assert.strictEqual(comment.createdAt, "2024-06-18T19:17:20.000Z")
  })
})
