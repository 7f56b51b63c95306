import { assert, layer } from "@effect/vitest"
import { Duration, Effect, Logger } from "effect"
import { SqlClient } from "effect/sql"
import { Inbox } from "@herald/core"
import { backends } from "@herald/db/testing"
import { fastTuning, serverLayer } from "./harness.ts"
import { assertDueAfter, cursorOf, exampleWith, setup, timed } from "./inbox.ts"
import { events as allEvents } from "./publishing.ts"

// Inbox intake keeps going whatever one account brings: a stranger's NUL or lone surrogate is repaired
// (U+FFFD) instead of refused, and an account whose items the database refuses fails alone, counted, logged
// and read again later with backoff, while every other account of the same round advances. The server runs
// as `api`, so no background round interferes: each `pollDue` here is exactly one round.

/** The example network, writing a time that is no time on the comments that ask for it (`#bad-time`). */
const carelessExample = exampleWith((inbox) => ({
  fetch: (input) =>
    Effect.map(inbox.fetch(input), (page) => ({
      ...page,
      comments: page.comments.map((comment) => comment.text.includes("#bad-time") ? { ...comment, createdAt: "soon" } : comment)
    }))
}))

/** A workspace's inbox events, oldest first. */
const events = (workspaceId: string) =>
  Effect.map(allEvents(workspaceId), (rows) => rows.filter((row) => /^(comment|message)\./.test(row.event)))

/** A database that refuses one account's comments, as a full disk or a broken row would. */
const refuseCommentsOf = (accountId: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    assert.match(accountId, /^acc_\w+$/)
    yield* sql.unsafe(`
      CREATE OR REPLACE FUNCTION inbox_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'no space left for %', NEW.account_id; END $$`)
    yield* sql.unsafe(`
      CREATE TRIGGER inbox_test_refuse BEFORE INSERT ON inbox_comments FOR EACH ROW
      WHEN (NEW.account_id = '${accountId}') EXECUTE FUNCTION inbox_test_refuse()`)
    return sql.unsafe("DROP TRIGGER inbox_test_refuse ON inbox_comments").pipe(Effect.orDie)
  }).pipe(Effect.orDie)

for (const backend of backends()) {
  layer(serverLayer({ role: "api" }, [carelessExample], backend, { ...fastTuning, inboxPollEvery: Duration.zero }), { excludeTestServices: true })(`inbox intake on ${backend.name}`, (it) => {
    it.effect("one account's NUL or refused store never holds back the others; the refused one backs off and recovers", () =>
      Effect.gen(function*() {
        const inbox = yield* Inbox.Inbox
        const sql = yield* SqlClient.SqlClient
        // Two accounts in one workspace (one of them refused by the database), a third elsewhere whose
        // stranger writes NUL and a lone surrogate.
        const good = yield* setup("good")
        const refused = yield* setup("refused")
        const stranger = yield* setup("nul")
        yield* Effect.orDie(sql`UPDATE accounts SET workspace_id = ${good.workspace.id} WHERE id = ${refused.account.id}`)
        const start = { good: yield* cursorOf(good.account.id), refused: yield* cursorOf(refused.account.id) }
        const restore = yield* refuseCommentsOf(refused.account.id)

        assert.strictEqual((yield* good.control("comments", { author: "fan_1", text: "Nice one" })).status, 201)
        assert.strictEqual((yield* good.control("messages", { author: "client_1", text: "Hello there" })).status, 201)
        assert.strictEqual((yield* refused.control("comments", { author: "fan_2", text: "Kept for later" }, good.key)).status, 201)
        assert.strictEqual((yield* stranger.control("comments", { author: "str\u0000nger", text: "bad\u0000byte \ud800 here" })).status, 201)
        assert.strictEqual((yield* stranger.control("messages", { author: "dm\ud83d", text: "hi\u0000" })).status, 201)
        assert.strictEqual((yield* stranger.control("comments", { author: "fan_3", text: "Whenever #bad-time" })).status, 201)

        const lines: Array<string> = []
        const capture = Logger.make((options) => void lines.push(Logger.formatLogFmt.log(options)))
        const round = yield* timed(inbox.pollDue.pipe(Effect.orDie, Effect.provide(Logger.layer([capture]))))
        assert.strictEqual(round.value, 5)

        // The good account's items arrived and its cursor moved.
        const ownEvents = yield* events(good.workspace.id)
        assert.deepStrictEqual(ownEvents.map((row) => [row.event, row.data.text]), [
          ["comment.received", "Nice one"],
          ["message.received", "Hello there"]
        ])
        const goodCursor = yield* cursorOf(good.account.id)
        assert.notStrictEqual(goodCursor.cursor, start.good.cursor)
        assert.strictEqual(goodCursor.failures, 0)

        // The stranger's text, repaired.
        const repaired = yield* events(stranger.workspace.id)
        assert.deepStrictEqual(repaired.map((row) => row.event), ["comment.received", "comment.received", "message.received"])
        assert.strictEqual(repaired[0]!.data.text, "bad\uFFFDbyte \uFFFD here")
        assert.strictEqual(repaired[0]!.data.author.username, "str\uFFFDnger")
        assert.strictEqual(repaired[2]!.data.text, "hi\uFFFD")
        assert.strictEqual(repaired[2]!.data.from, "dm\uFFFD")
        const listed = (yield* stranger.send("GET", "/inbox/comments")).body.data
        assert.includeMembers(listed.map((comment: any) => comment.text), ["bad\uFFFDbyte \uFFFD here", "Whenever #bad-time"])
        // A time that is no time is the time Herald read it.
        const careless = listed.find((comment: any) => comment.text === "Whenever #bad-time")
        const readAt = Date.parse(careless.createdAt)
        assert.isAtLeast(readAt, round.from - 1_000)
        assert.isAtMost(readAt, round.to + 1_000)

        // The refused account: counted, logged with its account and workspace, its cursor kept, read again in a minute.
        const failing = yield* cursorOf(refused.account.id)
        assert.strictEqual(failing.cursor, start.refused.cursor)
        assert.strictEqual(failing.failures, 1)
        assert.match(failing.lastError!, /no space left/)
        assertDueAfter(failing, 60, round)
        const logged = lines.find((line) => line.includes("inbox store failed"))
        assert.isDefined(logged, lines.join("\n"))
        assert.include(logged!, `account=${refused.account.id}`)
        assert.include(logged!, `workspace=${good.workspace.id}`)
        assert.include(logged!, "failures=1")

        // Not before its time, even when its network announces news; then, still refused, the wait doubles.
        // (Made due a second back: the database clock has microseconds, the round's clock milliseconds.)
        const networkAccountId = refused.simulator.state.accountByUsername(`${refused.tag}_ex`)!.id
        yield* Effect.orDie(inbox.wake("example", [networkAccountId]))
        assert.strictEqual((yield* cursorOf(refused.account.id)).nextPollAt.getTime(), failing.nextPollAt.getTime())
        yield* Effect.orDie(inbox.pollDue)
        assert.strictEqual((yield* cursorOf(refused.account.id)).failures, 1)
        yield* Effect.orDie(sql`UPDATE inbox_cursors SET next_poll_at = now() - interval '1 second' WHERE account_id = ${refused.account.id}`)
        const again = yield* timed(Effect.orDie(inbox.pollDue))
        const twice = yield* cursorOf(refused.account.id)
        assert.strictEqual(twice.failures, 2)
        assertDueAfter(twice, 120, again)

        // Once the database takes it again, its turn brings the comment that waited, once.
        yield* restore
        yield* Effect.orDie(sql`UPDATE inbox_cursors SET next_poll_at = now() - interval '1 second' WHERE account_id = ${refused.account.id}`)
        yield* Effect.orDie(inbox.pollDue)
        const recovered = yield* cursorOf(refused.account.id)
        assert.strictEqual(recovered.failures, 0)
        assert.isNull(recovered.lastError)
        assert.notStrictEqual(recovered.cursor, start.refused.cursor)
        const later = (yield* events(good.workspace.id)).filter((row) => row.event === "comment.received")
        assert.deepStrictEqual(later.map((row) => row.data.text), ["Nice one", "Kept for later"])
      }))
  })
}
