import { assert, layer } from "@effect/vitest"
import { Deferred, Duration, Effect, Fiber } from "effect"
import { SqlClient } from "effect/sql"
import { backends } from "@herald/db/testing"
import { fastTuning, serverLayer } from "./harness.ts"
import { exampleWith, setup } from "./inbox.ts"
import { events } from "./publishing.ts"

// Answers (comment replies, direct messages) are stored as `sending` before the network call and settled
// after it, like publishing: an answer that went out is never a 500, a repeat of it is never a second send,
// and one whose settle never happened (the process stopped) is settled by the account's next read, or, if
// no read shows it, called unknown. The server runs as `api`, so each `pollDue` here is exactly one round.

/** Where a test stops the example network's answers: after the network took one (the process stops before the settle), or before. */
let stop: { readonly at: "before" | "after"; readonly reached: Deferred.Deferred<void> } | undefined

const held = <A, E>(call: Effect.Effect<A, E>): Effect.Effect<A, E> =>
  Effect.suspend(() => {
    const current = stop
    if (current === undefined) return call
    stop = undefined
    const halt = Effect.andThen(Deferred.succeed(current.reached, undefined), Effect.never)
    return current.at === "before" ? halt : Effect.andThen(call, halt)
  })

const heldExample = exampleWith((inbox) => ({
  replyToComment: (input) => held(inbox.replyToComment(input)),
  sendMessage: (input) => held(inbox.sendMessage(input))
}))

/** Runs an answer until the network stage `at`, then stops it there, as a process killed at that point. */
const killedAt = <A, E, R>(at: "before" | "after", answer: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const reached = yield* Deferred.make<void>()
    stop = { at, reached }
    const fiber = yield* Effect.forkChild(answer)
    yield* Deferred.await(reached)
    yield* Fiber.interrupt(fiber)
  })

const conversation = Effect.gen(function*() {
  const context = yield* setup("answer")
  const { inbox, simulator } = context
  assert.strictEqual((yield* context.control("messages", { author: "client_1", text: "Open on Sunday?" })).status, 201)
  yield* Effect.orDie(inbox.pollDue)
  const [first] = (yield* context.send("GET", "/inbox/conversations")).body.data
  const own = simulator.state.accountByUsername(`${context.tag}_ex`)!
  /** How many times the network got a message with this text from the account. */
  const onNetwork = (text: string) => simulator.state.messagesAfter(own.id, 0).filter((message) => message.text === text).length
  const sentEvents = Effect.map(events(context.workspace.id), (rows) => rows.filter((row) => row.event === "message.sent"))
  const thread = Effect.map(context.send("GET", `/inbox/conversations/${first.id}/messages`), (answer) => answer.body.data)
  return { ...context, conversationId: first.id as string, onNetwork, sentEvents, thread }
})

for (const backend of backends()) {
  layer(serverLayer({ role: "api" }, [heldExample], backend, { ...fastTuning, inboxPollEvery: Duration.zero }), { excludeTestServices: true })(`inbox answers on ${backend.name}`, (it) => {
    it.effect("a message that went out but could not be stored answers 200, and its repeats send nothing", () =>
      Effect.gen(function*() {
        const { conversationId, inbox, onNetwork, send, sentEvents, thread } = yield* conversation
        const sql = yield* SqlClient.SqlClient
        const text = "Yes, from ten"
        // The database refuses to record the network's id for this message (a failover, a full disk).
        yield* Effect.orDie(sql.unsafe(`
          CREATE OR REPLACE FUNCTION inbox_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN RAISE EXCEPTION 'the database is gone'; END $$`))
        yield* Effect.orDie(sql.unsafe(`
          CREATE TRIGGER inbox_test_refuse BEFORE INSERT OR UPDATE ON direct_messages FOR EACH ROW
          WHEN (NEW.text = '${text}' AND NEW.network_message_id IS NOT NULL) EXECUTE FUNCTION inbox_test_refuse()`))
        const path = `/inbox/conversations/${conversationId}/messages`
        const first = yield* send("POST", path, { text }, { "idempotency-key": "answer-1" })
        assert.strictEqual(first.status, 200, first.text)
        assert.deepInclude(first.body.data, { text, outgoing: true, status: "sent" })
        assert.strictEqual(onNetwork(text), 1)

        const replayed = yield* send("POST", path, { text }, { "idempotency-key": "answer-1" })
        assert.strictEqual(replayed.status, 200)
        assert.strictEqual(replayed.body.data.id, first.body.data.id)
        const repeated = yield* send("POST", path, { text })
        assert.strictEqual(repeated.status, 200, repeated.text)
        assert.deepInclude(repeated.body.data, { id: first.body.data.id, status: "sending" })
        assert.strictEqual(onNetwork(text), 1, "a repeat is never a second send")

        // The database back, the account's next read settles it and announces it, once.
        yield* Effect.orDie(sql.unsafe("DROP TRIGGER inbox_test_refuse ON direct_messages"))
        yield* Effect.orDie(sql`UPDATE inbox_cursors SET next_poll_at = now() - interval '1 second'`)
        yield* Effect.orDie(inbox.pollDue)
        const mine = (yield* thread).filter((message: any) => message.text === text)
        assert.lengthOf(mine, 1)
        assert.deepInclude(mine[0], { id: first.body.data.id, status: "sent", failure: null })
        const announced = yield* sentEvents
        assert.lengthOf(announced, 1)
        assert.strictEqual(announced[0]!.data.messageId, first.body.data.id)
      }))

    it.effect("the same message sent twice at once goes out once, both answered with it", () =>
      Effect.gen(function*() {
        const { conversationId, onNetwork, send } = yield* conversation
        const text = "Double-clicked"
        const path = `/inbox/conversations/${conversationId}/messages`
        const answers = yield* Effect.all([send("POST", path, { text }), send("POST", path, { text }), send("POST", path, { text })], {
          concurrency: "unbounded"
        })
        for (const answer of answers) assert.strictEqual(answer.status, 200, answer.text)
        assert.strictEqual(new Set(answers.map((answer) => answer.body.data.id)).size, 1)
        assert.strictEqual(onNetwork(text), 1)
      }))

    it.effect("the same message again right after it went out is the same one; ten seconds on it is a new one", () =>
      Effect.gen(function*() {
        // Two requests of one double click can reach the database one after the other, the first settled
        // before the second looks (seen on PostgreSQL under load): the second must not send again.
        const { conversationId, onNetwork, send } = yield* conversation
        const sql = yield* SqlClient.SqlClient
        const text = "Sent twice by a double click"
        const path = `/inbox/conversations/${conversationId}/messages`
        const first = yield* send("POST", path, { text })
        assert.deepInclude(first.body.data, { status: "sent" })
        const second = yield* send("POST", path, { text })
        assert.strictEqual(second.status, 200, second.text)
        assert.strictEqual(second.body.data.id, first.body.data.id)
        assert.strictEqual(onNetwork(text), 1)

        yield* Effect.orDie(sql`UPDATE direct_messages SET created_at = created_at - interval '11 seconds' WHERE id = ${first.body.data.id}`)
        const later = yield* send("POST", path, { text })
        assert.deepInclude(later.body.data, { status: "sent" })
        assert.notStrictEqual(later.body.data.id, first.body.data.id)
        assert.strictEqual(onNetwork(text), 2, "the same words later are a new message")
      }))

    it.effect("a message cut off after the network took it is settled by the next read, never sent twice", () =>
      Effect.gen(function*() {
        const { conversationId, inbox, onNetwork, send, sentEvents, thread, workspace } = yield* conversation
        const text = "See you Sunday"
        yield* killedAt("after", inbox.sendMessage(workspace.id, conversationId, text))
        assert.strictEqual(onNetwork(text), 1)
        const [pending] = (yield* thread).filter((message: any) => message.text === text)
        assert.deepInclude(pending, { status: "sending", outgoing: true })

        const again = yield* send("POST", `/inbox/conversations/${conversationId}/messages`, { text })
        assert.strictEqual(again.status, 200, again.text)
        assert.deepInclude(again.body.data, { id: pending.id, status: "sending" })
        assert.strictEqual(onNetwork(text), 1, "the same answer again is not sent again")

        yield* Effect.orDie(inbox.pollDue)
        const mine = (yield* thread).filter((message: any) => message.text === text)
        assert.lengthOf(mine, 1)
        assert.deepInclude(mine[0], { id: pending.id, status: "sent" })
        assert.deepStrictEqual((yield* sentEvents).map((row) => row.data.messageId), [pending.id])
      }))

    it.effect("a reply cut off after the network took it is settled by the next read; one the network never got turns unknown", () =>
      Effect.gen(function*() {
        const { account, control, inbox, send, simulator, workspace } = yield* setup("reply")
        const sql = yield* SqlClient.SqlClient
        assert.strictEqual((yield* control("comments", { author: "fan_1", text: "When is the next one?" })).status, 201)
        yield* Effect.orDie(inbox.pollDue)
        const [comment] = (yield* send("GET", "/inbox/comments")).body.data
        const replies = (text: string) => [...simulator.state.comments.values()].filter((entry) => entry.text === text).length
        const mine = (text: string) =>
          Effect.map(send("GET", "/inbox/comments"), (answer) => answer.body.data.filter((entry: any) => entry.text === text))

        yield* killedAt("after", inbox.replyToComment(workspace.id, comment.id, "Next Friday"))
        assert.strictEqual(replies("Next Friday"), 1)
        const [pending] = yield* mine("Next Friday")
        assert.deepInclude(pending, { status: "sending", reply: comment.id })
        const again = yield* send("POST", `/inbox/comments/${comment.id}/reply`, { text: "Next Friday" })
        assert.deepInclude(again.body.data, { id: pending.id, status: "sending" })
        assert.strictEqual(replies("Next Friday"), 1)
        yield* Effect.orDie(inbox.pollDue)
        const settled = yield* mine("Next Friday")
        assert.lengthOf(settled, 1)
        assert.deepInclude(settled[0], { id: pending.id, status: "sent", reply: comment.id })

        // Stopped before the network got it: no read ever shows it, so once past settling it is unknown.
        yield* killedAt("before", inbox.replyToComment(workspace.id, comment.id, "Or Saturday"))
        assert.strictEqual(replies("Or Saturday"), 0)
        yield* Effect.orDie(sql`UPDATE inbox_comments SET created_at = created_at - interval '6 minutes' WHERE account_id = ${account.id} AND status = 'sending'`)
        yield* Effect.orDie(inbox.pollDue)
        const [unknown] = yield* mine("Or Saturday")
        assert.strictEqual(unknown.status, "unknown")
        assert.match(unknown.failure, /check on example before sending it again/)
        const repeat = yield* send("POST", `/inbox/comments/${comment.id}/reply`, { text: "Or Saturday" })
        assert.deepInclude(repeat.body.data, { id: unknown.id, status: "unknown" })
        assert.strictEqual(replies("Or Saturday"), 0, "an unknown outcome is not sent again blindly")
      }))

    it.effect("a reply the network refuses is kept as failed with its reason, and answers 409", () =>
      Effect.gen(function*() {
        const { control, inbox, send } = yield* setup("refusal")
        assert.strictEqual((yield* control("comments", { author: "fan_1", text: "Hello" })).status, 201)
        yield* Effect.orDie(inbox.pollDue)
        const [comment] = (yield* send("GET", "/inbox/comments")).body.data
        const refused = yield* send("POST", `/inbox/comments/${comment.id}/reply`, { text: "Buy now #sandbox-fail" })
        assert.strictEqual(refused.status, 409, refused.text)
        assert.strictEqual(refused.body.error.code, "conflict")
        assert.match(refused.body.error.message, /refused this because its text contains #sandbox-fail/)
        const [kept] = (yield* send("GET", "/inbox/comments")).body.data.filter((entry: any) => entry.outgoing)
        assert.deepInclude(kept, { status: "failed", text: "Buy now #sandbox-fail" })
        assert.match(kept.failure, /refused this because its text contains #sandbox-fail/)
      }))
  })
}
