import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { Adapter } from "@herald/adapter-kit"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import * as Inbox from "../src/internal/inbox.ts"
import { YouTubeAdapter, YouTubeSimulator } from "../src/index.ts"

// The YouTube inbox end to end: the adapter's comment polling and replies against the simulator's
// `commentThreads` and `comments` endpoints over real HTTP, with viewers' comments coming in through the
// kit's control routes. YouTube has no direct messages.

/** The channel's one post is a processed upload: YouTube posts are videos, with a title. */
const start = (context: AdapterSuite.Context, username: string) =>
  AdapterSuite.startInbox(context, username, {
    post: { text: `upload of ${username} ${Date.now()}`, title: `Video of ${username}`, media: [AdapterSuite.media.video(context)] }
  })

AdapterSuite.withHarness({ makeAdapter: YouTubeAdapter.make, makeSimulator: YouTubeSimulator.simulator })("youtube inbox", (it) => {
  const context = Effect.service(AdapterSuite.Harness)

  it.effect("asks for the comment scope", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      assert.include(ctx.adapter.oauth.scopes, "https://www.googleapis.com/auth/youtube.force-ssl")
    }))

  it.effect("the first fetch skips what was there; the next brings a new comment once, with its fields", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, published } = yield* start(ctx, "yt_inbox_owner")
      const old = yield* AdapterSuite.control(ctx, "comments", { username: "yt_inbox_owner", author: "early_bird", text: "Before Herald" })
      assert.strictEqual(old.status, 201)

      const first = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: null })
      assert.deepStrictEqual([first.comments.length, first.messages.length], [0, 0])
      assert.isAbove(first.cursor.length, 0)

      const comment = yield* AdapterSuite.control(ctx, "comments", {
        username: "yt_inbox_owner",
        author: "carla",
        text: "Love this",
        postId: published.id
      })
      assert.strictEqual(comment.status, 201)
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: first.cursor })
      assert.strictEqual(page.comments.length, 1)
      assert.deepStrictEqual(page.messages, [])
      const received = page.comments[0]!
      assert.strictEqual(received.id, comment.body["id"])
      assert.strictEqual(received.text, "Love this")
      assert.strictEqual(received.postId, published.id)
      assert.isNull(received.replyTo)
      assert.strictEqual(received.author.username, "carla")
      assert.strictEqual(received.author.id, (comment.body["author"] as Adapter.Person).id)
      assert.notStrictEqual(received.author.id, account.networkAccountId)
      assert.strictEqual(received.permalink, `${ctx.baseUrl}/sandbox/youtube/watch?v=${published.id}&lc=${received.id}`)
      // YouTube's times have whole seconds.
      assert.match(received.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/)

      yield* AdapterSuite.checkNothingNew(ctx, account, page.cursor, { sameCursor: false })
    }))

  it.effect("brings every comment of the same second once, across consecutive cursors", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor } = yield* start(ctx, "yt_inbox_burst")
      const seen: Array<string> = []
      let current = cursor
      for (const round of [1, 2, 3]) {
        for (const n of [1, 2, 3]) {
          yield* AdapterSuite.control(ctx, "comments", { username: "yt_inbox_burst", author: `fan${n}`, text: `round ${round} #${n}` })
        }
        const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: current })
        seen.push(...page.comments.map((entry) => entry.text))
        current = page.cursor
      }
      assert.deepStrictEqual(seen, [1, 2, 3].flatMap((round) => [1, 2, 3].map((n) => `round ${round} #${n}`)))
    }))

  it.effect("replies to a comment; the simulator keeps it and the next fetch brings it as the channel's own", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor, published } = yield* start(ctx, "yt_inbox_replier")
      yield* AdapterSuite.control(ctx, "comments", { username: "yt_inbox_replier", author: "ines", text: "Where is this?" })
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })
      const comment = page.comments[0]!

      const { reply, stored } = yield* AdapterSuite.answerComment(ctx, { account, comment, text: "In Lisbon", postId: published.id })
      assert.strictEqual(reply.permalink, `${ctx.baseUrl}/sandbox/youtube/watch?v=${published.id}&lc=${reply.id}`)
      assert.strictEqual(stored.text, "In Lisbon")

      const later = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: page.cursor })
      assert.deepStrictEqual(later.comments.map((entry) => [entry.id, entry.replyTo, entry.author.id, entry.text]), [
        [reply.id, comment.id, account.networkAccountId, "In Lisbon"]
      ])

      // YouTube has one level of replies: answering the reply answers its thread.
      const nested = yield* AdapterSuite.inboxOf(ctx).replyToComment({ account, comment: later.comments[0]!, text: "Near the river" })
      assert.strictEqual(ctx.simulator.state.comments.get(nested.id)!.replyTo, comment.id)
    }))

  it.effect("reads replies the thread does not carry with comments.list, and only when the count grew", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor } = yield* start(ctx, "yt_inbox_busy")
      const top = yield* AdapterSuite.control(ctx, "comments", { username: "yt_inbox_busy", author: "host", text: "Thread" })
      for (const n of [1, 2, 3, 4, 5, 6, 7]) {
        yield* AdapterSuite.control(ctx, "comments", { username: "yt_inbox_busy", author: `guest${n}`, text: `reply ${n}`, replyTo: top.body["id"] })
      }
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })
      assert.deepStrictEqual(page.comments.map((entry) => entry.text), ["Thread", 1, 2, 3, 4, 5, 6, 7].map((n) =>
        typeof n === "string" ? n : `reply ${n}`))
      assert.isTrue(page.comments.slice(1).every((entry) => entry.replyTo === top.body["id"]))
      assert.strictEqual(Option.getOrThrow(Inbox.decode(page.cursor)).replies[String(top.body["id"])], 7)

      yield* AdapterSuite.control(ctx, "comments", { username: "yt_inbox_busy", author: "guest8", text: "reply 8", replyTo: top.body["id"] })
      const more = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: page.cursor })
      assert.deepStrictEqual(more.comments.map((entry) => entry.text), ["reply 8"])
    }))

  it.effect("leaves out comments about no video", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor, published } = yield* start(ctx, "yt_inbox_channel")
      yield* AdapterSuite.control(ctx, "comments", { username: "yt_inbox_channel", author: "odd", text: "on the channel", postId: "none" })
      yield* AdapterSuite.control(ctx, "comments", { username: "yt_inbox_channel", author: "even", text: "on the video", postId: published.id })
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })
      assert.deepStrictEqual(page.comments.map((entry) => entry.text), ["on the video"])
    }))

  it.effect("has no direct messages: none are read and sending one fails for good", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor } = yield* start(ctx, "yt_inbox_dm")
      const { sent } = yield* AdapterSuite.checkNoMessages(ctx, {
        account,
        cursor,
        message: { username: "yt_inbox_dm", author: "dan", text: "Hi" }
      })
      assert.strictEqual(sent.status, 201)
    }))

  it.effect("maps an expired token, refusals and the sandbox triggers as publishing does", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor } = yield* start(ctx, "yt_inbox_errors")
      yield* AdapterSuite.control(ctx, "comments", { username: "yt_inbox_errors", author: "kim", text: "Hey" })
      const comment = (yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })).comments[0]!

      const unknown = yield* Effect.flip(AdapterSuite.inboxOf(ctx).replyToComment({ account, comment: { ...comment, id: "404" }, text: "x" }))
      assert.strictEqual(unknown.reason._tag, "Rejected")
      assert.include(unknown.message, "no longer exists")
      const failed = yield* Effect.flip(AdapterSuite.inboxOf(ctx).replyToComment({ account, comment, text: "no #sandbox-fail" }))
      assert.strictEqual(failed.reason._tag, "Rejected")
      const flaky = yield* Effect.flip(AdapterSuite.inboxOf(ctx).replyToComment({ account, comment, text: "wobbly #sandbox-flaky" }))
      assert.strictEqual(flaky.reason._tag, "Transient")
      const retried = yield* AdapterSuite.inboxOf(ctx).replyToComment({ account, comment, text: "wobbly #sandbox-flaky" })
      assert.isDefined(ctx.simulator.state.comments.get(retried.id))

      ctx.simulator.state.expire(account.networkAccountId)
      const fetchExpired = yield* Effect.flip(AdapterSuite.inboxOf(ctx).fetch({ account, cursor }))
      assert.strictEqual(fetchExpired.reason._tag, "AuthExpired")
      const replyExpired = yield* Effect.flip(AdapterSuite.inboxOf(ctx).replyToComment({ account, comment, text: "late" }))
      assert.strictEqual(replyExpired.reason._tag, "AuthExpired")
    }))

  it.effect("starts from now on a cursor that is not its own", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account } = yield* start(ctx, "yt_inbox_foreign")
      yield* AdapterSuite.control(ctx, "comments", { username: "yt_inbox_foreign", author: "lee", text: "already here" })
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: "not-a-cursor" })
      assert.deepStrictEqual(page.comments, [])
      assert.isTrue(Option.isSome(Inbox.decode(page.cursor)))
    }))
})

describe("YouTube inbox cursor", () => {
  const listed = (id: string, publishedMs: number): Inbox.Listed => ({
    publishedMs,
    comment: {
      id,
      postId: "v",
      replyTo: null,
      author: { id: "a", username: "a", name: null },
      text: id,
      permalink: null,
      createdAt: new Date(publishedMs).toISOString()
    }
  })

  it("trails the newest comment and keeps the ids handed out since then", () => {
    const newest = 10 * Inbox.settleMs
    const { cursor, news } = Inbox.advance(Inbox.empty, [listed("old", 0), listed("new", newest)], [])
    assert.deepStrictEqual(news.map((entry) => entry.id), ["old", "new"])
    assert.deepStrictEqual(cursor, { since: newest - Inbox.settleMs, seen: { new: newest }, replies: {} })
    // A comment YouTube lists late, a little older than the newest, still comes; the newest does not again.
    const late = Inbox.advance(cursor, [listed("new", newest), listed("late", newest - 1000)], [])
    assert.deepStrictEqual(late.news.map((entry) => entry.id), ["late"])
  })

  it("moves past the ids it can no longer keep, so none of them comes back", () => {
    const many = Array.from({ length: Inbox.maxSeen + 10 }, (_, n) => listed(`c${n}`, 1_000 + n))
    const { cursor } = Inbox.advance(Inbox.empty, many, [])
    assert.strictEqual(Object.keys(cursor.seen).length, Inbox.maxSeen)
    assert.deepStrictEqual(Inbox.advance(cursor, many, []).news, [])
    assert.deepStrictEqual(Option.getOrThrow(Inbox.decode(Inbox.encode(cursor))), cursor)
  })
})
