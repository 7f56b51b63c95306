import { assert, layer } from "@effect/vitest"
import { Clock, Effect } from "effect"
import { backends } from "@herald/db/testing"
import { serverLayer } from "./harness.ts"
import { cursorOf, setup } from "./inbox.ts"

// A comment or message left on a sandbox account through the sandbox's control routes is read in the next
// polling round, not at the account's turn a minute later (decision 0064): a person trying the inbox sees it
// within seconds. No other account is read sooner for it. The server runs as `api`, so no background round
// interferes: each `pollDue` here is exactly one round, and an account read by one is due again in a minute.

for (const backend of backends()) {
  layer(serverLayer({ role: "api" }, undefined, backend), { excludeTestServices: true })(`the sandbox inbox on ${backend.name}`, (it) => {
    it.effect("a comment or message left through _control makes its account due at once; another account keeps its turn", () =>
      Effect.gen(function*() {
        const left = yield* setup("soon")
        const other = yield* setup("later")
        // The first round reads both (new accounts are due at once); each is next due in a minute.
        yield* Effect.orDie(left.inbox.pollDue)
        assert.approximately((yield* cursorOf(left.account.id)).dueIn, 60, 5)
        assert.approximately((yield* cursorOf(other.account.id)).dueIn, 60, 5)

        const comment = yield* left.control("comments", { author: "a_fan", text: "Seen within a round" })
        assert.strictEqual(comment.status, 201, comment.text)
        assert.isAtMost((yield* cursorOf(left.account.id)).dueIn, 0)
        assert.approximately((yield* cursorOf(other.account.id)).dueIn, 60, 5)
        // The next round reads it.
        assert.strictEqual(yield* Effect.orDie(left.inbox.pollDue), 1)
        const listed = (yield* left.send("GET", "/inbox/comments")).body.data
        assert.deepStrictEqual(listed.map((item: any) => item.text), ["Seen within a round"])
        assert.approximately((yield* cursorOf(left.account.id)).dueIn, 60, 5)

        const message = yield* left.control("messages", { author: "a_client", text: "Open on Sunday?" })
        assert.strictEqual(message.status, 201, message.text)
        assert.isAtMost((yield* cursorOf(left.account.id)).dueIn, 0)
        assert.strictEqual(yield* Effect.orDie(left.inbox.pollDue), 1)

        // A control call refused (an account of another workspace answers as none) makes nothing due.
        const refused = yield* left.control("comments", { username: `${other.tag}_ex`, author: "a_fan", text: "Not yours" })
        assert.strictEqual(refused.status, 404, refused.text)
        assert.approximately((yield* cursorOf(other.account.id)).dueIn, 60, 5)
      }))

    // Due is the database's time, which wakes and new accounts are stamped with: a round whose own clock is
    // behind it (another host, or the same one read a fraction of a millisecond earlier) still reads them.
    it.effect("an account made due is read in the next round by a process whose clock is behind the database's", () =>
      Effect.gen(function*() {
        const left = yield* setup("behind")
        yield* Effect.orDie(left.inbox.pollDue)
        const comment = yield* left.control("comments", { author: "a_fan", text: "Read despite the clock" })
        assert.strictEqual(comment.status, 201, comment.text)
        assert.isAtMost((yield* cursorOf(left.account.id)).dueIn, 0)
        assert.strictEqual(yield* Effect.orDie(behind(left.inbox.pollDue, 2_000)), 1)
        assert.approximately((yield* cursorOf(left.account.id)).dueIn, 58, 5)
      }))
  })
}

/** Runs an effect with a wall clock `ms` behind the real one. */
const behind = <A, E, R>(effect: Effect.Effect<A, E, R>, ms: number) =>
  Clock.clockWith((clock) => {
    const currentTimeMillisUnsafe = () => clock.currentTimeMillisUnsafe() - ms
    const currentTimeNanosUnsafe = () => clock.currentTimeNanosUnsafe() - BigInt(ms) * 1_000_000n
    return Effect.provideService(effect, Clock.Clock, {
      currentTimeMillisUnsafe,
      currentTimeMillis: Effect.sync(currentTimeMillisUnsafe),
      currentTimeNanosUnsafe,
      currentTimeNanos: Effect.sync(currentTimeNanosUnsafe),
      monotonicTimeNanosUnsafe: () => clock.monotonicTimeNanosUnsafe(),
      monotonicTimeNanos: clock.monotonicTimeNanos,
      sleep: (duration) => clock.sleep(duration)
    })
  })
