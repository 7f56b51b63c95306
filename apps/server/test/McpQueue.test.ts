import { assert, layer } from "@effect/vitest"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"
import { backends } from "@herald/db/testing"
import { QueueSchedule } from "@herald/domain"
import * as Packages from "../src/Packages.ts"
import { serverLayer } from "./harness.ts"
import { call, connect } from "./mcpClient.ts"
import { setup } from "./publishing.ts"

// The posting queue through MCP (docs/mcp.md, docs/queue.md), driven by the SDK's client: queued posts from
// create_post and update_post, and what the descriptions tell an assistant about the queue.

/** A failed call's REST error, read from its text. */
const failure = (result: CallToolResult) => {
  assert.isTrue(result.isError, JSON.stringify(result))
  const first = result.content[0] as { type: string; text: string }
  return JSON.parse(first.text).error as { code: string; message: string; details?: ReadonlyArray<{ field: string }> }
}

/** A successful call's body: the structured content, which the text repeats. */
const success = (result: CallToolResult) => {
  assert.notStrictEqual(result.isError, true, JSON.stringify(result))
  const first = result.content[0] as { type: string; text: string }
  assert.deepStrictEqual(JSON.parse(first.text), result.structuredContent)
  return result.structuredContent as any
}

/**
 * Every whole hour of every day but the current and the next (UTC, the workspace's default zone): whatever the
 * clock says, the first slot is over an hour away, so no queued post falls due and goes out while a test looks.
 */
const hourly = (): QueueSchedule.Schedule => {
  const current = new Date().getUTCHours()
  const hours = Array.from({ length: 24 }, (_, hour) => hour).filter((hour) => hour !== current && hour !== (current + 1) % 24)
  return { slots: QueueSchedule.days.flatMap((day) => hours.map((hour) => ({ day, time: `${String(hour).padStart(2, "0")}:00` }))) }
}

/** The schedule's next `count` slots from `from`, as the API writes times. */
const nextSlots = (schedule: QueueSchedule.Schedule, from: Date, count: number) =>
  QueueSchedule.upcoming(schedule, "UTC", from, count).map((at) => at.toISOString())

for (const backend of backends()) {
  layer(serverLayer({}, Packages.all, backend), { excludeTestServices: true })(`mcp queue on ${backend.name}`, (it) => {
    it.effect("create_post with queued: true takes the earliest slot free for every account, as REST answers it", () =>
      Effect.scoped(Effect.gen(function*() {
        const { accounts, base, key, send } = yield* setup(["x", "linkedin"])
        const schedule = hourly()
        assert.strictEqual((yield* send("PUT", "/queue/schedule", schedule)).status, 200)
        const client = yield* connect(base, key.key)
        // Listed first, so the SDK client checks every structured result against its tool's outputSchema.
        yield* Effect.promise(() => client.listTools())
        const before = new Date()

        const both = success(yield* call(client, "create_post", {
          content: "Queued by an assistant",
          accountIds: [accounts.x, accounts.linkedin],
          queued: true
        })).data
        assert.deepInclude(both, { queued: true, status: "scheduled" })
        // The first slot, or the one after if the clock passed an hour while the call ran.
        const slots = nextSlots(schedule, before, 3)
        assert.include(slots.slice(0, 2), both.scheduledAt)
        assert.deepStrictEqual(both, (yield* send("GET", `/posts/${both.id}`)).body.data)

        // The slot is taken for x: the next post to x waits for the following slot; so does one to both.
        const xOnly = success(yield* call(client, "create_post", { content: "Next for x", accountIds: [accounts.x], queued: true })).data
        assert.strictEqual(xOnly.queued, true)
        assert.strictEqual(xOnly.scheduledAt, slots[slots.indexOf(both.scheduledAt) + 1])
        const linkedinOnly = success(yield* call(client, "create_post", {
          content: "Next for linkedin",
          accountIds: [accounts.linkedin],
          queued: true
        })).data
        assert.strictEqual(linkedinOnly.scheduledAt, xOnly.scheduledAt, "the slot x took is still free for linkedin")
      })))

    it.effect("update_post queues a draft, and a scheduledAt pins it out of the queue", () =>
      Effect.scoped(Effect.gen(function*() {
        const { accounts, base, key, send } = yield* setup(["x"])
        const schedule = hourly()
        assert.strictEqual((yield* send("PUT", "/queue/schedule", schedule)).status, 200)
        const client = yield* connect(base, key.key)
        yield* Effect.promise(() => client.listTools())
        const draft = success(yield* call(client, "create_post", { content: "A draft", accountIds: [accounts.x], draft: true })).data
        assert.strictEqual(draft.queued, false)

        const before = new Date()
        const queued = success(yield* call(client, "update_post", { id: draft.id, queued: true })).data
        assert.deepInclude(queued, { queued: true, status: "scheduled" })
        assert.include(nextSlots(schedule, before, 2), queued.scheduledAt)

        const pinnedAt = new Date(Date.parse(queued.scheduledAt) + 90 * 60_000).toISOString()
        const pinned = success(yield* call(client, "update_post", { id: draft.id, scheduledAt: pinnedAt })).data
        assert.deepInclude(pinned, { queued: false, status: "scheduled", scheduledAt: pinnedAt })
        assert.deepStrictEqual(pinned, (yield* send("GET", `/posts/${draft.id}`)).body.data)

        // Out of the queue, its slot is free again for the next queued post.
        const next = success(yield* call(client, "create_post", { content: "Queued", accountIds: [accounts.x], queued: true })).data
        assert.strictEqual(next.scheduledAt, queued.scheduledAt)
      })))

    it.effect("a queue without slots is an invalid tool error carrying REST's message, naming queued", () =>
      Effect.scoped(Effect.gen(function*() {
        const { accounts, base, key, send } = yield* setup(["x"])
        const client = yield* connect(base, key.key)
        const body = { content: "Nowhere to go", accountIds: [accounts.x], queued: true }
        const refused = failure(yield* call(client, "create_post", body))
        const rest = (yield* send("POST", "/posts", body)).body.error
        assert.strictEqual(refused.code, "invalid")
        assert.strictEqual(refused.message, rest.message)
        assert.deepStrictEqual(refused.details, rest.details)
        assert.deepStrictEqual(refused.details?.map((detail) => detail.field), ["queued"])
        assert.include(refused.message, "PUT /api/v1/queue/schedule")
        assert.deepStrictEqual(success(yield* call(client, "list_posts")).data, [], "nothing was made")

        // A draft cannot be queued either.
        const draft = success(yield* call(client, "create_post", { content: "A draft", accountIds: [accounts.x], draft: true })).data
        const notQueued = failure(yield* call(client, "update_post", { id: draft.id, queued: true }))
        assert.strictEqual(notQueued.code, "invalid")
        assert.strictEqual(notQueued.message, rest.message)
        assert.strictEqual((yield* send("GET", `/posts/${draft.id}`)).body.data.status, "draft")
      })))

    it.effect("get_queue answers the upcoming slots as GET /queue does: free ones with post null, none without a schedule", () =>
      Effect.scoped(Effect.gen(function*() {
        const { accounts, base, key, send } = yield* setup(["x"])
        const client = yield* connect(base, key.key)
        yield* Effect.promise(() => client.listTools())
        const from = new Date().toISOString()

        const none = success(yield* call(client, "get_queue", { from }))
        assert.deepStrictEqual(none, { data: [], nextCursor: null })
        assert.deepStrictEqual(none, (yield* send("GET", `/queue?from=${from}`)).body)

        const schedule = hourly()
        assert.strictEqual((yield* send("PUT", "/queue/schedule", schedule)).status, 200)
        const free = success(yield* call(client, "get_queue", { from, limit: 3 }))
        assert.deepStrictEqual(
          free.data,
          nextSlots(schedule, new Date(from), 3).map((at) => ({ at, accountId: accounts.x, post: null, inSchedule: true }))
        )
        assert.isString(free.nextCursor)
        assert.deepStrictEqual(free, (yield* send("GET", `/queue?from=${from}&limit=3`)).body)
      })))

    it.effect("get_queue shows a queued post in its slot for each of its accounts, a page at a time", () =>
      Effect.scoped(Effect.gen(function*() {
        const { accounts, base, key, send } = yield* setup(["x", "linkedin"])
        const schedule = hourly()
        assert.strictEqual((yield* send("PUT", "/queue/schedule", schedule)).status, 200)
        const client = yield* connect(base, key.key)
        yield* Effect.promise(() => client.listTools())
        const from = new Date().toISOString()
        const both = success(yield* call(client, "create_post", {
          content: "In the queue",
          accountIds: [accounts.x, accounts.linkedin],
          queued: true
        })).data
        const xOnly = success(yield* call(client, "create_post", { content: "x next", accountIds: [accounts.x], queued: true })).data

        // Two accounts, ordered by instant then account id: the shared slot twice, then the next one twice.
        const [first, second] = [accounts.x, accounts.linkedin].sort()
        const page = success(yield* call(client, "get_queue", { from, limit: 3 }))
        const rest = (yield* send("GET", `/queue?from=${from}&limit=3`)).body
        assert.deepStrictEqual(page, rest)
        const summary = (items: ReadonlyArray<any>) =>
          items.map((item) => ({ at: item.at, accountId: item.accountId, postId: item.post?.id ?? null, inSchedule: item.inSchedule }))
        const seat = (at: string, accountId: string) => ({
          at,
          accountId,
          postId: at === both.scheduledAt ? both.id : accountId === accounts.x ? xOnly.id : null,
          inSchedule: true
        })
        assert.deepStrictEqual(summary(page.data), [
          seat(both.scheduledAt, first!),
          seat(both.scheduledAt, second!),
          seat(xOnly.scheduledAt, first!)
        ])
        // The post is the full post, as get_post answers it.
        assert.deepStrictEqual(page.data[0].post, success(yield* call(client, "get_post", { id: both.id })).data)

        const next = success(yield* call(client, "get_queue", { from, limit: 3, cursor: page.nextCursor }))
        assert.deepStrictEqual(next, (yield* send("GET", `/queue?from=${from}&limit=3&cursor=${page.nextCursor}`)).body)
        assert.deepStrictEqual(summary(next.data)[0], seat(xOnly.scheduledAt, second!))

        // One account's queue.
        const xQueue = success(yield* call(client, "get_queue", { accountId: accounts.x, from, limit: 2 }))
        assert.deepStrictEqual(summary(xQueue.data), [seat(both.scheduledAt, accounts.x!), seat(xOnly.scheduledAt, accounts.x!)])
      })))

    it.effect("get_queue refuses a bad from, limit or cursor as invalid naming it, and an unknown account as not_found", () =>
      Effect.scoped(Effect.gen(function*() {
        const { base, key, send } = yield* setup([])
        const client = yield* connect(base, key.key)
        for (const [args, field] of [
          [{ from: "tomorrow" }, "from"],
          [{ cursor: "bm90IG9uZQ" }, "cursor"],
          [{ limit: 101 }, "limit"],
          [{ limit: 0 }, "limit"]
        ] as const) {
          const refused = failure(yield* call(client, "get_queue", args))
          assert.strictEqual(refused.code, "invalid", field)
          assert.deepStrictEqual(refused.details?.map((detail) => detail.field), [field])
        }
        const missing = failure(yield* call(client, "get_queue", { accountId: "acc_0000000000000000000000" }))
        assert.strictEqual(missing.code, "not_found")
        assert.strictEqual(missing.message, (yield* send("GET", "/queue?accountId=acc_0000000000000000000000")).body.error.message)
      })))

    it.effect("the instructions and the post tools' descriptions say how the queue works", () =>
      Effect.scoped(Effect.gen(function*() {
        const { base, key } = yield* setup([])
        const client = yield* connect(base, key.key)
        const instructions = client.getInstructions() ?? ""
        assert.include(instructions, "exactly one of scheduledAt, publishNow, queued or draft")
        assert.include(instructions, "PUT /api/v1/queue/schedule")
        const { tools } = yield* Effect.promise(() => client.listTools())
        const create = tools.find((tool) => tool.name === "create_post")!.description!
        assert.include(create, "exactly one of scheduledAt (an ISO 8601 time with a zone, not more than 60 s in the past), " +
          "publishNow: true, queued: true, or draft: true")
        for (const name of ["create_post", "update_post"]) {
          const description = tools.find((tool) => tool.name === name)!.description!
          assert.include(description, "earliest slot of the weekly posting schedule", name)
          assert.include(description, "free for every one of its accounts", name)
          assert.include(description, "Sending scheduledAt later pins the post", name)
          assert.include(description, "PUT /api/v1/queue/schedule", name)
          assert.include(description, "get_queue lists the upcoming slots", name)
        }
        assert.include(instructions, "get_queue lists the upcoming slots")
        const getQueue = tools.find((tool) => tool.name === "get_queue")!
        assert.deepInclude(getQueue.annotations, { readOnlyHint: true, destructiveHint: false, idempotentHint: true })
        assert.deepStrictEqual(Object.keys(getQueue.inputSchema.properties ?? {}).sort(), ["accountId", "cursor", "from", "limit"])
        assert.deepInclude(getQueue.inputSchema.properties!.limit, { type: "integer", minimum: 1, maximum: 100 })
      })))
  })
}
