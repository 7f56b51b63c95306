import { assert, layer } from "@effect/vitest"
import { Clock, Effect, Fiber, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { ApiKeys, Team } from "@herald/core"
import { backends } from "@herald/db/testing"
import { acceptAs, apiWithKey, examplePackage, serverLayer, workspaceWithKey } from "./harness.ts"
import { skipIf } from "../../../testing/skipIf.ts"

// Queued posts over REST (docs/queue.md): `queued: true` takes the earliest free slot of every account.
// Each test sets the server's clock to an instant of its own, so the slots it expects are exact.

/** The real clock moved to the instant a test names (`set`); time goes on from there at its real pace. */
const settableClock = () => {
  const real = Clock.Clock.defaultValue()
  let offset = 0
  const now = () => real.currentTimeMillisUnsafe() + offset
  const clock: Clock.Clock = {
    currentTimeMillisUnsafe: now,
    currentTimeMillis: Effect.sync(now),
    currentTimeNanosUnsafe: () => BigInt(now()) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(now()) * 1_000_000n),
    monotonicTimeNanosUnsafe: () => real.monotonicTimeNanosUnsafe(),
    monotonicTimeNanos: real.monotonicTimeNanos,
    sleep: (duration) => real.sleep(duration)
  }
  const set = (instant: string) =>
    Effect.sync(() => {
      offset = new Date(instant).getTime() - real.currentTimeMillisUnsafe()
    })
  return { clock, set }
}

let counter = 0
/** A workspace in `timeZone` with `count` accounts of the example network, called with its workspace key. */
const setup = (count = 1, timeZone = "UTC") =>
  Effect.gen(function*() {
    const { key, workspace } = yield* workspaceWithKey("Queued", `owner@qp${++counter}.test`)
    const sql = yield* SqlClient.SqlClient
    const accountIds = Array.from({ length: count }, (_, index) => `acc_qp${index}${workspace.id.slice(4, 24)}`)
    for (const accountId of accountIds) {
      yield* sql`INSERT INTO accounts (id, workspace_id, platform, username) VALUES (${accountId}, ${workspace.id}, 'example', 'q')`
    }
    const send = yield* apiWithKey(key.key)
    if (timeZone !== "UTC") assert.strictEqual((yield* send("PATCH", "/workspace", { timeZone })).status, 200)
    /** Queues a post to `accounts` and answers it, checking it was accepted. */
    const queue = (accounts: ReadonlyArray<string>, as = send) =>
      Effect.map(as("POST", "/posts", { content: "In the queue", accountIds: accounts, queued: true }), (answer) => {
        assert.strictEqual(answer.status, 200, answer.text)
        return answer.body.data
      })
    return { workspace, accountIds, send, sql, queue }
  }).pipe(Effect.orDie)

/** A weekly schedule from "day time" strings. */
const slots = (...entries: ReadonlyArray<string>) => ({
  slots: entries.map((entry) => ({ day: entry.split(" ")[0], time: entry.split(" ")[1] }))
})
const everyDayAt = (time: string) => slots(...["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map((day) => `${day} ${time}`))
const hourly = slots(...["mon", "tue", "wed", "thu", "fri", "sat", "sun"].flatMap((day) =>
  Array.from({ length: 24 }, (_, hour) => `${day} ${String(hour).padStart(2, "0")}:00`)))

/** The seats the database holds for a post, as "account instant". */
const seatsOf = (postId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly accountId: string; readonly slotAt: Date }>`
      SELECT account_id, slot_at FROM queue_seats WHERE post_id = ${postId} ORDER BY account_id`).pipe(
      Effect.map((rows) => rows.map((row) => `${row.accountId} ${new Date(row.slotAt).toISOString()}`)),
      Effect.orDie
    )

/** What a workspace has written: posts, seats and post events. */
const written = (workspaceId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.all({
      posts: sql`SELECT id FROM posts WHERE workspace_id = ${workspaceId}`,
      seats: sql`SELECT post_id FROM queue_seats WHERE workspace_id = ${workspaceId}`,
      events: sql`SELECT id FROM events WHERE workspace_id = ${workspaceId} AND event LIKE 'post.%'`
    })).pipe(Effect.map(({ events, posts, seats }) => ({ posts: posts.length, seats: seats.length, events: events.length })), Effect.orDie)

/** A post's events, in order. */
const eventsOf = (workspaceId: string, postId: string) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ readonly event: string; readonly data: any }>`
      SELECT event, data FROM events WHERE workspace_id = ${workspaceId} AND event LIKE 'post.%' ORDER BY sequence`).pipe(
      Effect.map((rows) => rows.filter((row) => row.data.postId === postId)),
      Effect.orDie
    )

for (const backend of backends()) {
  const wall = settableClock()
  const server = serverLayer({}, [examplePackage], backend).pipe(Layer.provideMerge(Layer.succeed(Clock.Clock, wall.clock)))
  layer(server, { excludeTestServices: true })(`queued posts on ${backend.name}`, (it) => {
    it.effect("50 concurrent queued creates at one account get the next 50 slots, each once", () =>
      Effect.gen(function*() {
        yield* wall.set("2027-01-04T08:30:00Z")
        const { accountIds, queue, send } = yield* setup()
        assert.strictEqual((yield* send("PUT", "/queue/schedule", hourly)).status, 200)
        const posts = yield* Effect.forEach(Array.from({ length: 50 }), () => queue(accountIds), { concurrency: "unbounded" })
        for (const post of posts) assert.deepInclude(post, { queued: true, status: "scheduled" })
        const times = posts.map((post) => post.scheduledAt as string).sort()
        const expected = Array.from({ length: 50 }, (_, hour) => new Date(Date.UTC(2027, 0, 4, 9 + hour)).toISOString())
        assert.deepStrictEqual(times, expected)
      }))

    it.effect("a queued create takes the earliest free slot from now: scheduled, queued, seated, post.scheduled", () =>
      Effect.gen(function*() {
        // Monday 09:20: this morning's 09:00 has passed.
        yield* wall.set("2027-01-04T09:20:00Z")
        const { accountIds: [account], queue, send, workspace } = yield* setup()
        yield* send("PUT", "/queue/schedule", slots("mon 09:00", "mon 13:00", "tue 10:00"))
        const first = yield* queue([account!])
        assert.deepInclude(first, { status: "scheduled", queued: true, scheduledAt: "2027-01-04T13:00:00.000Z" })
        assert.deepStrictEqual((yield* send("GET", `/posts/${first.id}`)).body.data, first)
        assert.deepStrictEqual(yield* seatsOf(first.id), [`${account} 2027-01-04T13:00:00.000Z`])
        const recorded = yield* eventsOf(workspace.id, first.id)
        assert.deepStrictEqual(recorded.map((event) => event.event), ["post.scheduled"])
        assert.deepStrictEqual(recorded[0]!.data.post, first)

        assert.strictEqual((yield* queue([account!])).scheduledAt, "2027-01-05T10:00:00.000Z")
        assert.strictEqual((yield* queue([account!])).scheduledAt, "2027-01-11T09:00:00.000Z")
      }))

    it.effect("queued with scheduledAt, publishNow or draft is invalid (one timing choice), and nothing is written", () =>
      Effect.gen(function*() {
        yield* wall.set("2027-01-04T08:00:00Z")
        const { accountIds, send, workspace } = yield* setup()
        yield* send("PUT", "/queue/schedule", hourly)
        for (const other of [{ scheduledAt: "2027-01-05T10:00:00.000Z" }, { publishNow: true }, { draft: true }]) {
          const answer = yield* send("POST", "/posts", { content: "Both", accountIds, queued: true, ...other })
          assert.strictEqual(answer.status, 400, answer.text)
          assert.strictEqual(answer.body.error.code, "invalid")
          assert.include(answer.body.error.message, "not several")
        }
        assert.deepStrictEqual(yield* written(workspace.id), { posts: 0, seats: 0, events: 0 })
      }))

    it.effect("a workspace without slots: invalid naming queued, saying to set a schedule; nothing is written", () =>
      Effect.gen(function*() {
        yield* wall.set("2027-01-04T08:00:00Z")
        const { accountIds, send, workspace } = yield* setup()
        const answer = yield* send("POST", "/posts", { content: "Nowhere to go", accountIds, queued: true })
        assert.strictEqual(answer.status, 400, answer.text)
        assert.strictEqual(answer.body.error.code, "invalid")
        const details = answer.body.error.details as ReadonlyArray<{ field: string; message: string }>
        assert.deepStrictEqual(details.map((detail) => detail.field), ["queued"])
        assert.include(details[0]!.message, "set a weekly schedule")
        assert.include(details[0]!.message, "PUT /api/v1/queue/schedule")
        assert.deepStrictEqual(yield* written(workspace.id), { posts: 0, seats: 0, events: 0 })
      }))

    it.effect("several accounts: a slot free for each, of every account's schedule; none in common is invalid", () =>
      Effect.gen(function*() {
        yield* wall.set("2027-01-04T08:00:00Z")
        const { accountIds: [a, b, c], queue, send } = yield* setup(3)
        yield* send("PUT", "/queue/schedule", slots("mon 09:00", "mon 10:00", "mon 11:00", "mon 12:00"))
        assert.strictEqual((yield* queue([a!])).scheduledAt, "2027-01-04T09:00:00.000Z")
        // 09:00 is free for b but not for a.
        const both = yield* queue([a!, b!])
        assert.strictEqual(both.scheduledAt, "2027-01-04T10:00:00.000Z")
        assert.deepStrictEqual(yield* seatsOf(both.id), [`${a} 2027-01-04T10:00:00.000Z`, `${b} 2027-01-04T10:00:00.000Z`])

        // b's own schedule leaves a and b 09:00 (a's is taken) and 12:00 in common: not 11:00.
        const own = yield* send("PUT", `/accounts/${b}/queue-schedule`, slots("mon 09:00", "mon 12:00", "tue 08:00"))
        assert.strictEqual(own.status, 200, own.text)
        assert.strictEqual((yield* queue([a!, b!])).scheduledAt, "2027-01-04T12:00:00.000Z")
        assert.strictEqual((yield* queue([b!])).scheduledAt, "2027-01-04T09:00:00.000Z")

        yield* send("PUT", `/accounts/${c}/queue-schedule`, slots("wed 07:00"))
        const apart = yield* send("POST", "/posts", { content: "No common time", accountIds: [a, c], queued: true })
        assert.strictEqual(apart.status, 400, apart.text)
        assert.strictEqual(apart.body.error.code, "invalid")
        assert.strictEqual(apart.body.error.details[0].field, "queued")
        assert.include(apart.body.error.details[0].message, "no queue slot in common")
      }))

    it.effect("PATCH: a time pins it, draft and queued: false take it out, each freeing the seat; a time alone is post.rescheduled", () =>
      Effect.gen(function*() {
        yield* wall.set("2027-01-04T08:00:00Z")
        const { accountIds: [account], queue, send, workspace } = yield* setup()
        yield* send("PUT", "/queue/schedule", slots("mon 09:00", "mon 10:00", "mon 11:00"))
        const patch = (id: string, body: unknown) =>
          Effect.map(send("PATCH", `/posts/${id}`, body), (answer) => {
            assert.strictEqual(answer.status, 200, answer.text)
            return answer.body.data
          })
        const nine = "2027-01-04T09:00:00.000Z"

        const pinned = yield* queue([account!])
        assert.strictEqual(pinned.scheduledAt, nine)
        const later = "2027-01-05T15:00:00.000Z"
        assert.deepInclude(yield* patch(pinned.id, { scheduledAt: later }), { status: "scheduled", queued: false, scheduledAt: later })
        assert.deepStrictEqual(yield* seatsOf(pinned.id), [])
        assert.deepStrictEqual((yield* eventsOf(workspace.id, pinned.id)).map((event) => event.event), ["post.scheduled", "post.rescheduled"])

        const drafted = yield* queue([account!])
        assert.strictEqual(drafted.scheduledAt, nine, "the pinned post's seat was freed")
        assert.deepInclude(yield* patch(drafted.id, { draft: true }), { status: "draft", queued: false })
        assert.deepStrictEqual(yield* seatsOf(drafted.id), [])

        const unqueued = yield* queue([account!])
        assert.strictEqual(unqueued.scheduledAt, nine, "the draft's seat was freed")
        assert.deepInclude(yield* patch(unqueued.id, { queued: false }), { status: "scheduled", queued: false, scheduledAt: nine })
        assert.deepStrictEqual(yield* seatsOf(unqueued.id), [])
        assert.strictEqual((yield* queue([account!])).scheduledAt, nine, "queued: false freed the seat")
      }))

    it.effect("PATCH: queued: true seats a scheduled post or a draft; content keeps the seat; DELETE frees it", () =>
      Effect.gen(function*() {
        yield* wall.set("2027-01-04T08:00:00Z")
        const { accountIds: [account], queue, send } = yield* setup()
        yield* send("PUT", "/queue/schedule", slots("mon 09:00", "mon 10:00", "mon 11:00"))
        const patch = (id: string, body: unknown) =>
          Effect.map(send("PATCH", `/posts/${id}`, body), (answer) => {
            assert.strictEqual(answer.status, 200, answer.text)
            return answer.body.data
          })
        const create = (body: object) =>
          Effect.map(send("POST", "/posts", { content: "Not queued yet", accountIds: [account], ...body }), (answer) => answer.body.data)

        // 09:00 freed by a DELETE, so a change that gave up the seat would take 09:00 instead of 10:00.
        const deleted = yield* queue([account!])
        const kept = yield* queue([account!])
        assert.strictEqual((yield* send("DELETE", `/posts/${deleted.id}`)).status, 200)
        assert.deepStrictEqual(yield* seatsOf(deleted.id), [])
        const edited = yield* patch(kept.id, { content: "Edited in the queue" })
        assert.deepInclude(edited, { content: "Edited in the queue", queued: true, scheduledAt: "2027-01-04T10:00:00.000Z" })
        assert.deepStrictEqual(yield* seatsOf(kept.id), [`${account} 2027-01-04T10:00:00.000Z`])

        const scheduled = yield* create({ scheduledAt: "2027-02-01T12:00:00.000Z" })
        assert.deepInclude(yield* patch(scheduled.id, { queued: true }), {
          status: "scheduled",
          queued: true,
          scheduledAt: "2027-01-04T09:00:00.000Z"
        }, "the deleted post's seat was freed")
        assert.deepStrictEqual(yield* seatsOf(scheduled.id), [`${account} 2027-01-04T09:00:00.000Z`])

        const draft = yield* create({ draft: true })
        assert.deepInclude(yield* patch(draft.id, { queued: true }), { status: "scheduled", queued: true, scheduledAt: "2027-01-04T11:00:00.000Z" })
        assert.deepStrictEqual(yield* seatsOf(draft.id), [`${account} 2027-01-04T11:00:00.000Z`])
      }))

    it.effect("PATCH accountIds: the slot is kept while free for the new accounts, else the earliest free for all", () =>
      Effect.gen(function*() {
        yield* wall.set("2027-01-04T08:00:00Z")
        const { accountIds: [a, b, c], queue, send } = yield* setup(3)
        yield* send("PUT", "/queue/schedule", slots("mon 09:00", "mon 10:00", "mon 11:00", "mon 12:00"))
        const widen = (id: string, accountIds: ReadonlyArray<string>) =>
          Effect.map(send("PATCH", `/posts/${id}`, { accountIds }), (answer) => {
            assert.strictEqual(answer.status, 200, answer.text)
            return answer.body.data
          })
        const nine = yield* queue([a!])
        const ten = yield* queue([a!])
        const eleven = yield* queue([a!])
        // c holds 09:00 and 10:00 of its own; a's 09:00 is freed, so a post that gave up its seat would take it.
        yield* queue([c!])
        yield* queue([c!])
        assert.strictEqual((yield* send("DELETE", `/posts/${nine.id}`)).status, 200)

        const kept = yield* widen(eleven.id, [a!, b!])
        assert.deepInclude(kept, { queued: true, scheduledAt: "2027-01-04T11:00:00.000Z" })
        assert.deepStrictEqual(yield* seatsOf(eleven.id), [`${a} 2027-01-04T11:00:00.000Z`, `${b} 2027-01-04T11:00:00.000Z`])

        // 09:00 and 10:00 are c's, 11:00 is a's: 12:00 is the first free for both.
        const moved = yield* widen(ten.id, [a!, c!])
        assert.deepInclude(moved, { queued: true, scheduledAt: "2027-01-04T12:00:00.000Z" })
        assert.deepStrictEqual(yield* seatsOf(ten.id), [`${a} 2027-01-04T12:00:00.000Z`, `${c} 2027-01-04T12:00:00.000Z`])
        // a's 10:00 was given up.
        assert.strictEqual((yield* queue([a!])).scheduledAt, "2027-01-04T09:00:00.000Z")
        assert.strictEqual((yield* queue([a!])).scheduledAt, "2027-01-04T10:00:00.000Z")
      }))

    it.effect("approval: an editor's queued post awaits approval holding its seat; request-changes frees it", () =>
      Effect.gen(function*() {
        yield* wall.set("2027-01-04T08:00:00Z")
        const { accountIds: [account], queue, send, workspace } = yield* setup()
        yield* send("PUT", "/queue/schedule", slots("mon 09:00", "mon 10:00"))
        assert.strictEqual((yield* send("PATCH", "/workspace", { approvalRequired: true })).status, 200)
        const team = yield* Team.Team
        const invitation = yield* team.invite(workspace.id, { email: `ed@${workspace.id}.test`, role: "editor" })
        const { member } = yield* acceptAs(invitation)
        const apiKeys = yield* ApiKeys.ApiKeys
        const editor = yield* apiWithKey((yield* apiKeys.create({ workspaceId: workspace.id, memberId: member.id })).key)

        const waiting = yield* queue([account!], editor)
        assert.deepInclude(waiting, { status: "awaiting_approval", queued: true, scheduledAt: "2027-01-04T09:00:00.000Z" })
        assert.deepStrictEqual(yield* seatsOf(waiting.id), [`${account} 2027-01-04T09:00:00.000Z`])
        assert.strictEqual((yield* queue([account!], editor)).scheduledAt, "2027-01-04T10:00:00.000Z", "the seat is held while it waits")

        const sent = yield* send("POST", `/posts/${waiting.id}/request-changes`, { note: "Not this week" })
        assert.strictEqual(sent.status, 200, sent.text)
        assert.deepInclude(sent.body.data, { status: "draft", queued: false })
        assert.deepStrictEqual(yield* seatsOf(waiting.id), [])
        assert.strictEqual((yield* queue([account!])).scheduledAt, "2027-01-04T09:00:00.000Z")
      }).pipe(Effect.orDie))

    it.effect("the seats' key refuses a second seat for one account and instant, written straight to the table", () =>
      Effect.gen(function*() {
        yield* wall.set("2027-01-04T08:00:00Z")
        const { accountIds: [account], queue, send, sql, workspace } = yield* setup()
        yield* send("PUT", "/queue/schedule", slots("mon 09:00"))
        const seated = yield* queue([account!])
        const other = (yield* send("POST", "/posts", { content: "Pinned", accountIds: [account], scheduledAt: "2027-01-04T09:00:00.000Z" })).body.data
        const error = yield* Effect.flip(sql`
          INSERT INTO queue_seats (account_id, slot_at, post_id, workspace_id)
          VALUES (${account!}, ${new Date(seated.scheduledAt)}, ${other.id}, ${workspace.id})`)
        assert.strictEqual(error.reason._tag, "UniqueViolation", String(error))
        assert.deepStrictEqual(yield* seatsOf(other.id), [])
        assert.deepStrictEqual(yield* seatsOf(seated.id), [`${account} 2027-01-04T09:00:00.000Z`])
      }))

    // Only PostgreSQL has a second session to take a slot while a create is between its read and its write
    // (PGlite runs one transaction at a time, so there the key is never reached by a create).
    it.effect(
      "a create that loses its slot to a seat written past the account lock is retried and takes the next one",
      () =>
        Effect.gen(function*() {
          yield* wall.set("2027-01-04T08:00:00Z")
          const { accountIds: [account], send, sql, workspace } = yield* setup()
          yield* send("PUT", "/queue/schedule", slots("mon 09:00", "mon 10:00"))
          const other = (yield* send("POST", "/posts", { content: "Pinned", accountIds: [account], scheduledAt: "2027-01-05T09:00:00.000Z" })).body.data
          const creating = yield* sql.withTransaction(Effect.gen(function*() {
            // Uncommitted, so the create reads 09:00 as free; its own seat then waits on this row's key.
            yield* sql`INSERT INTO queue_seats (account_id, slot_at, post_id, workspace_id)
              VALUES (${account!}, ${new Date("2027-01-04T09:00:00Z")}, ${other.id}, ${workspace.id})`
            const fiber = yield* Effect.forkDetach(send("POST", "/posts", { content: "Racing", accountIds: [account], queued: true }))
            const waiting = yield* Effect.repeat(
              // The driver pipelines the statement with its COMMIT, so the query shown may be either: what
              // tells is a session of this database waiting for this transaction.
              sql<{ readonly pid: number }>`SELECT pid FROM pg_stat_activity
                WHERE datname = current_database() AND wait_event_type = 'Lock' AND wait_event = 'transactionid'`,
              { until: (rows) => rows.length > 0, schedule: Schedule.spaced("20 millis"), times: 500 }
            )
            assert.isAbove(waiting.length, 0, "the create never reached its seat")
            return fiber
          }))
          const answer = yield* Fiber.join(creating)
          assert.strictEqual(answer.status, 200, answer.text)
          assert.deepInclude(answer.body.data, { queued: true, scheduledAt: "2027-01-04T10:00:00.000Z" })
          assert.deepStrictEqual(yield* seatsOf(answer.body.data.id), [`${account} 2027-01-04T10:00:00.000Z`])
        }).pipe(Effect.orDie),
      skipIf(backend.name === "postgres" ? undefined : "PGlite runs one transaction at a time: a race of two sessions needs PostgreSQL")
    )

    // Spring forward: 02:30 does not exist on 28 March 2027 in Berlin, nor on 14 March 2027 in New York.
    it.effect("daylight saving, spring forward: a slot the day skips is skipped (Berlin, New York)", () =>
      Effect.gen(function*() {
        yield* wall.set("2027-03-13T12:00:00Z")
        const newYork = yield* setup(1, "America/New_York")
        yield* newYork.send("PUT", "/queue/schedule", everyDayAt("02:30"))
        // Sunday 14 March has no 02:30: Monday's, in daylight time (UTC-4).
        assert.strictEqual((yield* newYork.queue(newYork.accountIds)).scheduledAt, "2027-03-15T06:30:00.000Z")

        yield* wall.set("2027-03-27T12:00:00Z")
        const berlin = yield* setup(1, "Europe/Berlin")
        yield* berlin.send("PUT", "/queue/schedule", everyDayAt("02:30"))
        // Sunday 28 March has no 02:30: Monday's, in summer time (UTC+2).
        assert.strictEqual((yield* berlin.queue(berlin.accountIds)).scheduledAt, "2027-03-29T00:30:00.000Z")
      }))

    // Fall back: 02:30 happens twice on 31 October 2027 in Berlin, 01:30 twice on 7 November 2027 in New York.
    it.effect("daylight saving, fall back: a slot the day repeats is used once, at its first occurrence (Berlin, New York)", () =>
      Effect.gen(function*() {
        yield* wall.set("2027-10-30T12:00:00Z")
        const berlin = yield* setup(1, "Europe/Berlin")
        yield* berlin.send("PUT", "/queue/schedule", everyDayAt("02:30"))
        // The first 02:30 is still summer time (UTC+2); the next post gets Monday's, not the repeat an hour on.
        assert.strictEqual((yield* berlin.queue(berlin.accountIds)).scheduledAt, "2027-10-31T00:30:00.000Z")
        assert.strictEqual((yield* berlin.queue(berlin.accountIds)).scheduledAt, "2027-11-01T01:30:00.000Z")

        yield* wall.set("2027-11-06T12:00:00Z")
        const newYork = yield* setup(1, "America/New_York")
        yield* newYork.send("PUT", "/queue/schedule", everyDayAt("01:30"))
        assert.strictEqual((yield* newYork.queue(newYork.accountIds)).scheduledAt, "2027-11-07T05:30:00.000Z")
        assert.strictEqual((yield* newYork.queue(newYork.accountIds)).scheduledAt, "2027-11-08T06:30:00.000Z")
      }))
  })
}
