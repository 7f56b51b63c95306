import { assert, describe, it as unit } from "@effect/vitest"
import { Effect, Option } from "effect"
import type { Adapter } from "@herald/adapter-kit"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import * as InboxCursor from "../src/internal/inboxCursor.ts"
import * as Request from "../src/internal/request.ts"
import { LinkedInAdapter, LinkedInSimulator } from "../src/index.ts"

// LinkedIn's inbox over real HTTP against the simulator: comments on the member's posts read through the
// Comments API, people's comments coming in through the kit's control routes; no direct messages.

/** A comment left by someone through the control route; answers what the simulator stored. */
const comment = (context: AdapterSuite.Context, body: Record<string, unknown>) =>
  Effect.map(AdapterSuite.control(context, "comments", body), (answer) => {
    assert.strictEqual(answer.status, 201, JSON.stringify(answer.body))
    return answer.body as unknown as Adapter.InboxComment
  })

/** A started member with someone's comment on their post, as the next fetch reads it. */
const asked = (context: AdapterSuite.Context, username: string, text: string) =>
  Effect.gen(function*() {
    const started = yield* AdapterSuite.startInbox(context, username)
    yield* comment(context, { username, author: `asker_of_${username}`, text })
    const page = yield* AdapterSuite.inboxOf(context).fetch({ account: started.account, cursor: started.cursor })
    return { ...started, page, question: page.comments[0]! }
  })

const root = (context: AdapterSuite.Context) => `${context.baseUrl}/sandbox/linkedin`

AdapterSuite.withHarness({ makeAdapter: LinkedInAdapter.make, makeSimulator: LinkedInSimulator.simulator })("linkedin inbox", (it) => {
  const context = Effect.service(AdapterSuite.Harness)

  it.effect("the first fetch skips what was there; the next brings a new comment once, in LinkedIn's terms", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, published } = yield* AdapterSuite.startInbox(ctx, "li_inbox_owner")
      yield* comment(ctx, { username: "li_inbox_owner", author: "early_bird", text: "Before Herald" })

      // As for a member just connected: a null cursor brings none of what is already there.
      const first = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: null })
      assert.deepStrictEqual([first.comments.length, first.messages.length], [0, 0])
      assert.isTrue(Option.isSome(InboxCursor.decode(first.cursor)))

      const stored = yield* comment(ctx, { username: "li_inbox_owner", author: "carla", text: "Love this (really) #launch" })
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: first.cursor })
      assert.strictEqual(page.comments.length, 1)
      assert.deepStrictEqual(page.messages, [])
      const received = page.comments[0]!
      const urn = Request.commentUrn(published.id, stored.id)
      assert.strictEqual(received.id, urn)
      assert.strictEqual(received.postId, published.id)
      assert.isNull(received.replyTo)
      assert.strictEqual(received.text, "Love this (really) #launch")
      // LinkedIn names other members by URN only.
      assert.deepStrictEqual(received.author, { id: stored.author.id, username: `urn:li:person:${stored.author.id}`, name: null })
      assert.notStrictEqual(received.author.id, account.networkAccountId)
      assert.strictEqual(received.permalink, `${root(ctx)}/feed/update/${published.id}/?commentUrn=${encodeURIComponent(urn)}`)
      assert.strictEqual(received.createdAt, stored.createdAt)

      yield* AdapterSuite.checkNothingNew(ctx, account, page.cursor, { sameCursor: true })
    }))

  it.effect("reads comments on any of the member's recent posts, and more than one page of them", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor, published: older } = yield* AdapterSuite.startInbox(ctx, "li_inbox_pages")
      const newer = yield* AdapterSuite.publishToEnd(ctx.adapter, {
        account,
        post: AdapterSuite.post({ text: `second post ${Date.now()}` })
      })
      yield* comment(ctx, { username: "li_inbox_pages", author: "on_older", text: "old post", postId: older.id })
      const many = LinkedInAdapter.inboxCommentsPerPage + 5
      for (let index = 0; index < many; index++) {
        yield* comment(ctx, { username: "li_inbox_pages", author: `fan_${index}`, text: `comment ${index}` })
      }
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })
      assert.strictEqual(page.comments.length, many + 1)
      assert.deepStrictEqual(page.comments.filter((entry) => entry.postId === older.id).map((entry) => entry.text), ["old post"])
      assert.strictEqual(page.comments.filter((entry) => entry.postId === newer.id).length, many)
      assert.strictEqual(new Set(page.comments.map((entry) => entry.id)).size, many + 1)
    }))

  it.effect("brings the member's own first comment and replies as theirs, and people's replies with their parent", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor } = yield* AdapterSuite.startInbox(ctx, "li_inbox_threads")
      const published = yield* AdapterSuite.publishToEnd(ctx.adapter, {
        account,
        post: AdapterSuite.post({ text: `with a first comment ${Date.now()}`, firstComment: "Slides below" })
      })
      const question = yield* comment(ctx, { username: "li_inbox_threads", author: "dana", text: "Where?" })
      const answer = yield* comment(ctx, {
        username: "li_inbox_threads",
        author: "eli",
        text: "In Lisbon, I think",
        replyTo: question.id
      })
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor })
      assert.deepStrictEqual(page.comments.map((entry) => [entry.text, entry.author.id === account.networkAccountId]), [
        ["Slides below", true],
        ["Where?", false],
        ["In Lisbon, I think", false]
      ])
      const own = page.comments[0]!
      assert.strictEqual(own.author.username, account.username)
      assert.strictEqual(own.postId, published.id)
      const reply = page.comments[2]!
      assert.strictEqual(reply.id, Request.commentUrn(published.id, answer.id))
      assert.strictEqual(reply.replyTo, Request.commentUrn(published.id, question.id))
    }))

  it.effect("replies to a comment; the simulator has it and the next fetch brings it back as the member's", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, page, published, question } = yield* asked(ctx, "li_inbox_replier", "Is there a recording?")

      const reply = yield* AdapterSuite.inboxOf(ctx).replyToComment({ account, comment: question, text: "Yes: example.com/talk_(2026)" })
      const parsed = Request.parseCommentUrn(reply.id)
      assert.isDefined(parsed)
      assert.strictEqual(parsed!.postUrn, published.id)
      const stored = ctx.simulator.state.comments.get(parsed!.commentId)
      assert.isDefined(stored)
      assert.strictEqual(stored!.text, "Yes: example.com/talk_(2026)", "sent as little text, read back whole")
      assert.strictEqual(stored!.replyTo, Request.parseCommentUrn(question.id)!.commentId)
      assert.strictEqual(stored!.postId, published.id)
      assert.strictEqual(stored!.author.id, account.networkAccountId)
      assert.strictEqual(reply.permalink, `${root(ctx)}/feed/update/${published.id}/?commentUrn=${encodeURIComponent(reply.id)}`)

      const later = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: page.cursor })
      assert.deepStrictEqual(later.comments.map((entry) => [entry.id, entry.replyTo, entry.author.id]), [
        [reply.id, question.id, account.networkAccountId]
      ])

      // LinkedIn threads two levels deep: answering the reply answers in the same thread.
      const second = yield* AdapterSuite.inboxOf(ctx).replyToComment({ account, comment: later.comments[0]!, text: "And the slides" })
      const thread = ctx.simulator.state.comments.get(Request.parseCommentUrn(second.id)!.commentId)
      assert.strictEqual(thread?.replyTo, Request.parseCommentUrn(question.id)!.commentId)
    }))

  it.effect("offers no direct messages: none are read and sending fails for good", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor } = yield* AdapterSuite.startInbox(ctx, "li_inbox_dms")
      const { sent } = yield* AdapterSuite.checkNoMessages(ctx, {
        account,
        cursor,
        message: { username: "li_inbox_dms", author: "recruiter", text: "Hi!" }
      })
      assert.strictEqual(sent.status, 201)
    }))

  it.effect("maps an expired token, a revoked grant and the sandbox triggers as for publishing", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor, question } = yield* asked(ctx, "li_inbox_errors", "Hey")

      // A comment that is gone is named by its URN on the post.
      const gone = { ...question, id: Request.commentUrn(question.postId, "404") }
      yield* AdapterSuite.checkAnswerErrors(ctx, { account, cursor, comment: question, gone })
    }))

  it.effect("asks for a reconnect after #sandbox-revoke in a reply", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account, cursor, question } = yield* asked(ctx, "li_inbox_revoked", "Hello")
      const revoked = yield* Effect.flip(AdapterSuite.inboxOf(ctx).replyToComment({ account, comment: question, text: "bye #sandbox-revoke" }))
      assert.strictEqual(revoked.reason._tag, "NeedsReconnect")
      const after = yield* Effect.flip(AdapterSuite.inboxOf(ctx).fetch({ account, cursor }))
      assert.strictEqual(after.reason._tag, "NeedsReconnect")
    }))

  it.effect("starts again from now on a cursor it did not make", () =>
    Effect.gen(function*() {
      const ctx = yield* context
      const { account } = yield* AdapterSuite.startInbox(ctx, "li_inbox_cursor")
      yield* comment(ctx, { username: "li_inbox_cursor", author: "old_news", text: "Before" })
      const page = yield* AdapterSuite.inboxOf(ctx).fetch({ account, cursor: "12345" })
      assert.deepStrictEqual(page.comments, [])
      assert.isTrue(Option.isSome(InboxCursor.decode(page.cursor)))
    }))
})

describe("inbox cursor", () => {
  unit("reads what is newer, or made in the same millisecond and not yet read", () => {
    const cursor = InboxCursor.advance(InboxCursor.at(1_000), [{ id: "a", time: 1_500 }, { id: "b", time: 1_200 }])
    assert.deepStrictEqual(cursor, { time: 1_500, seen: ["a"] })
    assert.isFalse(InboxCursor.isNew(cursor, { id: "a", time: 1_500 }))
    assert.isFalse(InboxCursor.isNew(cursor, { id: "b", time: 1_200 }))
    assert.isTrue(InboxCursor.isNew(cursor, { id: "c", time: 1_500 }))
    assert.isTrue(InboxCursor.isNew(cursor, { id: "d", time: 1_501 }))
    assert.deepStrictEqual(InboxCursor.advance(cursor, [{ id: "c", time: 1_500 }]), { time: 1_500, seen: ["a", "c"] })
    assert.deepStrictEqual(InboxCursor.advance(cursor, []), cursor)
  })

  unit("round-trips through its string, and refuses strings it did not make", () => {
    const cursor = { time: 1_732_000_000_000, seen: ["urn:li:comment:(urn:li:share:1,2)"] }
    assert.deepStrictEqual(Option.getOrThrow(InboxCursor.decode(InboxCursor.encode(cursor))), cursor)
    assert.isTrue(Option.isNone(InboxCursor.decode("12345")))
    assert.isTrue(Option.isNone(InboxCursor.decode("not json")))
  })
})
