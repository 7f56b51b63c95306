import { assert } from "@effect/vitest"
import { Effect } from "effect"
import type * as Adapter from "../Adapter.ts"
import type { Context } from "./suiteHarness.ts"
import { connect, post, type PostFields, publishToEnd } from "./suiteSteps.ts"

// The suite's steps for a network's inbox tests: people's comments and messages brought in through the
// simulator's control routes, and the checks of what the adapter reads and answers.

/**
 * Stands in for the people on the network: posts to the simulator's `_control/comments` or
 * `_control/messages` route (a comment or a direct message someone sends the account), which no adapter call
 * can do. Answers the route's status and JSON body (the stored item, or the error), for the test to check.
 */
export const control = (context: Context, kind: "comments" | "messages", body: Readonly<Record<string, unknown>>) =>
  Effect.promise(async () => {
    // The harness serves the simulator under its own network key.
    const response = await fetch(`${context.baseUrl}/sandbox/${context.simulator.network}/_control/${kind}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body)
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  })

/** The adapter's inbox hooks, failing the test where the adapter has none (the hooks are optional). */
export const inboxOf = (context: Context): Adapter.InboxHooks => {
  assert.isDefined(context.adapter.inbox, `the ${context.adapter.name} adapter has no inbox`)
  return context.adapter.inbox!
}

/**
 * The one message of `page` is the one injected through `control` (its answer's `body`): same id and
 * conversation, text, sender and attachment count, incoming, with a readable time.
 */
export const checkMessageArrived = (page: Adapter.InboxPage, injected: Readonly<Record<string, unknown>>) => {
  assert.strictEqual(page.messages.length, 1)
  const arrived = page.messages[0]!
  const sender = injected["from"] as Adapter.Person
  assert.strictEqual(arrived.id, injected["id"])
  assert.strictEqual(arrived.conversationId, injected["conversationId"])
  assert.strictEqual(arrived.text, injected["text"])
  assert.strictEqual(arrived.from.username, sender.username)
  assert.strictEqual(arrived.attachments, injected["attachments"])
  assert.isFalse(arrived.outgoing)
  assert.isFalse(Number.isNaN(Date.parse(arrived.createdAt)))
  return arrived
}

/**
 * Reads again from `cursor` and finds nothing new: each item comes once. With `sameCursor`, the cursor does
 * not move either (networks whose cursor keeps a window of recent ids may move it).
 */
export const checkNothingNew = (context: Context, account: Adapter.Account, cursor: string, options: { readonly sameCursor: boolean }) =>
  Effect.map(inboxOf(context).fetch({ account, cursor }), (again) => {
    assert.deepStrictEqual([again.comments.length, again.messages.length], [0, 0])
    if (options.sameCursor) assert.strictEqual(again.cursor, cursor)
    return again
  })

export interface StartInboxOptions {
  /**
   * Fields of the one post over its default, the text `post of <username> <time>`: the media a network's
   * posts need (a photo, a video with a title), or a text of its own.
   */
  readonly post?: PostFields
}

/**
 * Where an inbox test begins: a connected account with one published post for people to comment on, and the
 * cursor of the first (null-cursor) fetch, so what arrives from then on is news. `first` is that fetch's page.
 */
export const startInbox = (context: Context, username: string, options: StartInboxOptions = {}) =>
  Effect.gen(function*() {
    const { account } = yield* connect(context, username)
    const published = yield* publishToEnd(context.adapter, {
      account,
      post: post({ text: `post of ${username} ${Date.now()}`, ...options.post })
    })
    const first = yield* inboxOf(context).fetch({ account, cursor: null })
    return { account, published, cursor: first.cursor, first }
  })

/**
 * Replies to a comment through the adapter and checks the simulator keeps the reply where the network would:
 * under that comment, on `postId`, as the account. Answers the reply and what the simulator stored, for the
 * network's own checks (its links, its text).
 */
export const answerComment = (
  context: Context,
  input: {
    readonly account: Adapter.Account
    readonly comment: Adapter.InboxComment
    readonly text: string
    readonly postId: string
  }
) =>
  Effect.gen(function*() {
    const { account, comment, text } = input
    const reply = yield* inboxOf(context).replyToComment({ account, comment, text })
    const stored = context.simulator.state.comments.get(reply.id)
    assert.isDefined(stored, "the simulator has no such reply")
    assert.strictEqual(stored!.replyTo, comment.id)
    assert.strictEqual(stored!.postId, input.postId)
    assert.strictEqual(stored!.author.id, account.networkAccountId)
    return { reply, stored: stored! }
  })

/**
 * Answers a direct message through the adapter and checks the simulator keeps it as the account's, in that
 * conversation. Answers what was sent and what the simulator kept, for the network's own checks.
 */
export const answerMessage = (
  context: Context,
  input: { readonly account: Adapter.Account; readonly conversationId: string; readonly text: string }
) =>
  Effect.gen(function*() {
    const sent = yield* inboxOf(context).sendMessage(input)
    const kept = context.simulator.state.messagesAfter(input.account.networkAccountId, 0).find((entry) =>
      entry.id === sent.id
    )
    assert.isDefined(kept, "the simulator has no such message")
    assert.isTrue(kept!.outgoing)
    assert.strictEqual(kept!.conversationId, input.conversationId)
    return { sent, kept: kept! }
  })

/**
 * Answers fail as publishing does, so the engine treats them alike: `#sandbox-fail` is refused for good,
 * `#sandbox-flaky` may be retried, a comment that is gone (`gone`; by default the same with id `404`) is
 * refused; and once the token expires, reading and answering both ask for a refresh. It expires the
 * account's token, so it comes last in a test.
 */
export const checkAnswerErrors = (
  context: Context,
  input: {
    readonly account: Adapter.Account
    readonly cursor: string
    readonly comment: Adapter.InboxComment
    readonly gone?: Adapter.InboxComment
  }
) =>
  Effect.gen(function*() {
    const inbox = inboxOf(context)
    const { account, comment } = input
    const failed = yield* Effect.flip(inbox.replyToComment({ account, comment, text: "no #sandbox-fail" }))
    assert.strictEqual(failed.reason._tag, "Rejected")
    const flaky = yield* Effect.flip(inbox.replyToComment({ account, comment, text: "wobbly #sandbox-flaky" }))
    assert.isTrue(flaky.retryable)
    const gone = input.gone ?? { ...comment, id: "404" }
    const unknown = yield* Effect.flip(inbox.replyToComment({ account, comment: gone, text: "x" }))
    assert.strictEqual(unknown.reason._tag, "Rejected")

    context.simulator.state.expire(account.networkAccountId)
    const expired = yield* Effect.flip(inbox.fetch({ account, cursor: input.cursor }))
    assert.strictEqual(expired.reason._tag, "AuthExpired")
    const replyExpired = yield* Effect.flip(inbox.replyToComment({ account, comment, text: "late" }))
    assert.strictEqual(replyExpired.reason._tag, "AuthExpired")
  })

/**
 * For a network without direct messages: one a person sends (`message`, the control route's body) is not
 * read, and sending one fails for good, so the engine never retries it. Answers the control route's answer.
 */
export const checkNoMessages = (
  context: Context,
  input: { readonly account: Adapter.Account; readonly cursor: string; readonly message: Readonly<Record<string, unknown>> }
) =>
  Effect.gen(function*() {
    const sent = yield* control(context, "messages", input.message)
    const page = yield* inboxOf(context).fetch({ account: input.account, cursor: input.cursor })
    assert.deepStrictEqual(page.messages, [])
    const error = yield* Effect.flip(
      inboxOf(context).sendMessage({ account: input.account, conversationId: "any", text: "Hello" })
    )
    assert.strictEqual(error.reason._tag, "Rejected")
    assert.isFalse(error.retryable)
    assert.include(error.message, "does not offer direct messages")
    return { sent }
  })
