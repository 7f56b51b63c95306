import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiKeys, Team } from "@herald/core"
import { backends } from "@herald/db/testing"
import { acceptAs, apiWithKey, examplePackage, serverLayer, workspaceWithKey } from "./harness.ts"

// The queue view and its moves over REST (docs/queue.md, decision 0039): GET /queue, shuffle, move, swap and
// rebuild, on every backend.

const days = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
const hour = 3_600_000

/**
 * Every whole hour of every day but the next two, at `minute`: whatever the real clock says, the first slot is
 * over an hour away, so no queued post falls due (and goes out) while a test looks at it.
 */
const hourly = (minute = "00", only?: (hour: number) => boolean) => {
  const current = new Date().getUTCHours()
  const hours = Array.from({ length: 24 }, (_, index) => index)
    .filter((index) => index !== current && index !== (current + 1) % 24 && (only?.(index) ?? true))
  return { slots: days.flatMap((day) => hours.map((index) => ({ day, time: `${String(index).padStart(2, "0")}:${minute}` }))) }
}

let counter = 0
const setup = Effect.gen(function*() {
  const { key, workspace } = yield* workspaceWithKey("Queue view", `owner@qv${++counter}.test`)
  const sql = yield* SqlClient.SqlClient
  const suffix = workspace.id.slice(4, 24)
  // Ids whose code-point order differs from a case-insensitive one: the view orders them one way throughout.
  const a = `acc_QV${suffix}`
  const b = `acc_qv${suffix}`
  for (const id of [a, b]) {
    yield* sql`INSERT INTO accounts (id, workspace_id, platform, username) VALUES (${id}, ${workspace.id}, 'example', ${id})`
  }
  const team = yield* Team.Team
  const apiKeys = yield* ApiKeys.ApiKeys
  const invitation = yield* team.invite(workspace.id, { email: `ed@${workspace.id}.test`, role: "editor" })
  const { member } = yield* acceptAs(invitation)
  const editorKey = (yield* apiKeys.create({ workspaceId: workspace.id, memberId: member.id })).key
  const send = yield* apiWithKey(key.key)
  const queue = (accountIds: ReadonlyArray<string>, content = "queued") =>
    Effect.map(send("POST", "/posts", { content, accountIds, queued: true }), (answer) => {
      assert.strictEqual(answer.status, 200, answer.text)
      return answer.body.data as { readonly id: string; readonly scheduledAt: string }
    })
  const rescheduled = (postId: string) =>
    Effect.map(
      sql<{ readonly event: string }>`
        SELECT event FROM events WHERE workspace_id = ${workspace.id} AND event = 'post.rescheduled' AND data->>'postId' = ${postId}`,
      (rows) => rows.length
    )
  const version = (postId: string) =>
    Effect.map(sql<{ readonly version: number }>`SELECT version FROM posts WHERE id = ${postId}`, (rows) => Number(rows[0]!.version))
  const timeOf = (postId: string) => Effect.map(send("GET", `/posts/${postId}`), (answer) => answer.body.data.scheduledAt as string)
  return { workspace, a, b, send, editor: yield* apiWithKey(editorKey), queue, rescheduled, version, timeOf }
}).pipe(Effect.orDie)

interface Item {
  readonly at: string
  readonly accountId: string
  readonly post: { readonly id: string } | null
  readonly inSchedule: boolean
}

const sortedByTimeThenAccount = (items: ReadonlyArray<Item>) =>
  items.every((item, index) => {
    const previous = items[index - 1]
    return previous === undefined || previous.at < item.at || (previous.at === item.at && previous.accountId < item.accountId)
  })

for (const backend of backends()) layer(serverLayer({}, [examplePackage], backend), { excludeTestServices: true })(
  `queue view and moves on ${backend.name}`,
  (it) => {
    it.effect("the view lists each account's upcoming slots in order, free or with the full post seated there", () =>
      Effect.gen(function*() {
        const { a, b, editor, queue, send } = yield* setup
        const empty = yield* send("GET", "/queue")
        assert.strictEqual(empty.status, 200, empty.text)
        assert.deepStrictEqual(empty.body, { data: [], nextCursor: null }, "no schedule, no slots")

        assert.strictEqual((yield* send("PUT", "/queue/schedule", hourly())).status, 200)
        const first = yield* queue([a], "first")
        const second = yield* queue([a], "second")
        const both = yield* queue([a, b], "both")
        const answer = yield* editor("GET", "/queue?limit=8")
        assert.strictEqual(answer.status, 200, answer.text)
        const items = answer.body.data as ReadonlyArray<Item>
        assert.strictEqual(items.length, 8)
        assert.isTrue(sortedByTimeThenAccount(items))
        assert.isNotNull(answer.body.nextCursor)
        assert.isTrue(items.every((item) => item.inSchedule && new Date(item.at).getUTCMinutes() === 0))
        // Each slot instant once per account; the post to both accounts sits in the slot of each.
        const seated = items.filter((item) => item.post !== null).map((item) => [item.accountId, item.post!.id, item.at])
        assert.deepStrictEqual(seated, [
          [a, first.id, first.scheduledAt],
          [a, second.id, second.scheduledAt],
          [a, both.id, both.scheduledAt],
          [b, both.id, both.scheduledAt]
        ])
        assert.deepStrictEqual((items[0]!.post as Record<string, unknown>)["content"], "first", "the full post")
        // B's slots before the shared post are free.
        assert.isTrue(items.some((item) => item.accountId === b && item.post === null && item.at < both.scheduledAt))

        const onlyB = (yield* send("GET", `/queue?accountId=${b}&limit=3`)).body.data as ReadonlyArray<Item>
        assert.deepStrictEqual(onlyB.map((item) => item.accountId), [b, b, b])
        assert.deepStrictEqual(onlyB.map((item) => item.post?.id ?? null), [null, null, both.id])

        const later = (yield* send("GET", `/queue?accountId=${a}&limit=1&from=${encodeURIComponent(both.scheduledAt)}`)).body.data
        assert.strictEqual(later[0].post.id, both.id, "from includes its own instant")
      }))

    it.effect("paging with the cursor walks the same items as one long page, and bad parameters are named", () =>
      Effect.gen(function*() {
        const { a, b, queue, send } = yield* setup
        assert.strictEqual((yield* send("PUT", "/queue/schedule", hourly())).status, 200)
        yield* queue([a])
        yield* queue([b])
        const from = encodeURIComponent(new Date(Date.now() + hour).toISOString())
        const whole = (yield* send("GET", `/queue?from=${from}&limit=11`)).body.data as ReadonlyArray<Item>
        const walked: Array<Item> = []
        let cursor: string | null = null
        for (let page = 0; page < 4; page++) {
          const path: string = `/queue?from=${from}&limit=3${cursor === null ? "" : `&cursor=${cursor}`}`
          const answer = yield* send("GET", path)
          assert.strictEqual(answer.status, 200, answer.text)
          walked.push(...answer.body.data)
          cursor = answer.body.nextCursor
          assert.isNotNull(cursor)
        }
        assert.deepStrictEqual(walked.slice(0, 11), [...whole])

        for (
          const [query, field] of [["from=tomorrow", "from"], ["from=2026-01-01T09:00:00", "from"], ["limit=0", "limit"], [
            "limit=101",
            "limit"
          ], ["cursor=nonsense", "cursor"]]
        ) {
          const refused = yield* send("GET", `/queue?${query}`)
          assert.strictEqual(refused.status, 400, query)
          assert.strictEqual(refused.body.error.code, "invalid")
          assert.strictEqual(refused.body.error.details[0].field, field, query)
        }
        const unknown = yield* send("GET", "/queue?accountId=acc_nobody")
        assert.strictEqual(unknown.status, 404, unknown.text)
        assert.strictEqual(unknown.body.error.code, "not_found")
        assert.strictEqual((yield* send("POST", "/queue/rebuild", { accountId: "acc_nobody" })).status, 404)
        assert.strictEqual((yield* send("POST", "/queue/shuffle", { accountId: "acc_nobody" })).status, 404)
      }))

    it.effect("a new schedule moves nothing and shows the old seats out of schedule; a rebuild re-seats them in order", () =>
      Effect.gen(function*() {
        const { a, queue, rescheduled, send, timeOf, version } = yield* setup
        assert.strictEqual((yield* send("PUT", "/queue/schedule", hourly())).status, 200)
        const posts = [yield* queue([a], "one"), yield* queue([a], "two"), yield* queue([a], "three")]

        // Every slot moves half an hour on: the posts keep their times until a rebuild.
        assert.strictEqual((yield* send("PUT", "/queue/schedule", hourly("30"))).status, 200)
        for (const post of posts) {
          assert.strictEqual(yield* timeOf(post.id), post.scheduledAt)
          assert.strictEqual(yield* rescheduled(post.id), 0)
        }
        const view = (yield* send("GET", `/queue?accountId=${a}&limit=10`)).body.data as ReadonlyArray<Item>
        const seated = view.filter((item) => item.post !== null)
        assert.deepStrictEqual(seated.map((item) => [item.post!.id, item.at, item.inSchedule]), posts.map((post) => [post.id, post.scheduledAt, false]))
        assert.isTrue(view.filter((item) => item.post === null).every((item) => item.inSchedule && item.at.slice(14, 16) === "30"))

        const versions = yield* Effect.forEach(posts, (post) => version(post.id))
        const rebuilt = yield* send("POST", "/queue/rebuild", {})
        assert.strictEqual(rebuilt.status, 200, rebuilt.text)
        const moved = rebuilt.body.data.moved as ReadonlyArray<{ postId: string; from: string; to: string }>
        assert.strictEqual(rebuilt.body.data.unchanged, 0)
        assert.deepStrictEqual(moved.map((entry) => [entry.postId, entry.from]), posts.map((post) => [post.id, post.scheduledAt]))
        // In their order, at the earliest free new slots.
        const slots = view.filter((item) => item.post === null).map((item) => item.at)
        assert.deepStrictEqual(moved.map((entry) => entry.to), slots.slice(0, 3))
        for (const [index, post] of posts.entries()) {
          assert.strictEqual(yield* timeOf(post.id), moved[index]!.to)
          assert.strictEqual(yield* rescheduled(post.id), 1)
          assert.strictEqual(yield* version(post.id), versions[index]! + 1)
        }
        const after = (yield* send("GET", `/queue?accountId=${a}&limit=10`)).body.data as ReadonlyArray<Item>
        assert.isTrue(after.every((item) => item.inSchedule))

        // Nothing left to move: a second rebuild changes nothing. No body at all reads as {} (curl -X POST).
        const again = yield* send("POST", "/queue/rebuild")
        assert.deepStrictEqual(again.body.data, { moved: [], unchanged: 3 })
      }))

    it.effect("move takes a queued post to a free slot; a non-slot, a past time or a taken slot is refused by name", () =>
      Effect.gen(function*() {
        const { a, b, queue, rescheduled, send, version } = yield* setup
        assert.strictEqual((yield* send("PUT", "/queue/schedule", hourly())).status, 200)
        const first = yield* queue([a])
        const second = yield* queue([a])
        const view = (yield* send("GET", `/queue?accountId=${a}&limit=8`)).body.data as ReadonlyArray<Item>
        const free = view.filter((item) => item.post === null).map((item) => item.at)
        const before = yield* version(first.id)

        const moved = yield* send("POST", "/queue/move", { postId: first.id, at: free[1] })
        assert.strictEqual(moved.status, 200, moved.text)
        assert.strictEqual(moved.body.data.scheduledAt, free[1])
        assert.strictEqual(moved.body.data.queued, true)
        assert.strictEqual(yield* version(first.id), before + 1)
        assert.strictEqual(yield* rescheduled(first.id), 1)
        const seatedAt = (yield* send("GET", `/queue?accountId=${a}&limit=6`)).body.data.find((item: Item) => item.post?.id === first.id).at
        assert.strictEqual(seatedAt, free[1])

        const offSlot = new Date(new Date(free[2]!).getTime() + 60_000).toISOString()
        const refusals: ReadonlyArray<readonly [unknown, number, string]> = [
          [{ postId: first.id, at: offSlot }, 400, "at"],
          // A slot of the schedule, yesterday.
          [{ postId: first.id, at: new Date(Math.floor(Date.now() / hour) * hour - 22 * hour).toISOString() }, 400, "at"],
          [{ postId: first.id, at: "next tuesday" }, 400, "at"],
          [{ postId: first.id, at: second.scheduledAt }, 409, second.id],
          [{ postId: "pst_nobody", at: free[2] }, 404, "pst_nobody"]
        ]
        for (const [body, status, named] of refusals) {
          const refused = yield* send("POST", "/queue/move", body)
          assert.strictEqual(refused.status, status, refused.text)
          if (status === 400) assert.strictEqual(refused.body.error.details[0].field, named)
          else assert.include(refused.body.error.message, named)
        }

        // A post to two accounts moves only to a slot of both: B has slots on even hours only.
        assert.strictEqual((yield* send("PUT", `/accounts/${b}/queue-schedule`, hourly("00", (index) => index % 2 === 0))).status, 200)
        const shared = yield* queue([a, b])
        const oddHour = free.slice(2).find((at) => new Date(at).getUTCHours() % 2 === 1 && at !== shared.scheduledAt)!
        const notForB = yield* send("POST", "/queue/move", { postId: shared.id, at: oddHour })
        assert.strictEqual(notForB.status, 400, notForB.text)
        assert.include(notForB.body.error.message, b)

        // A post that is not queued does not move.
        const pinned = yield* send("POST", "/posts", { content: "pinned", accountIds: [a], scheduledAt: free[3] })
        const notQueued = yield* send("POST", "/queue/move", { postId: pinned.body.data.id, at: free[4] })
        assert.strictEqual(notQueued.status, 409, notQueued.text)
        assert.include(notQueued.body.error.message, "not in the queue")
      }))

    it.effect("swap trades two queued posts' times, refusing a time that is not a slot of the other's accounts or is taken", () =>
      Effect.gen(function*() {
        const { a, b, queue, rescheduled, send, timeOf } = yield* setup
        assert.strictEqual((yield* send("PUT", "/queue/schedule", hourly())).status, 200)
        const first = yield* queue([a])
        const second = yield* queue([a])
        const swapped = yield* send("POST", "/queue/swap", { postIds: [first.id, second.id] })
        assert.strictEqual(swapped.status, 200, swapped.text)
        assert.deepStrictEqual(swapped.body.data.map((post: { scheduledAt: string }) => post.scheduledAt), [second.scheduledAt, first.scheduledAt])
        assert.strictEqual(yield* timeOf(first.id), second.scheduledAt)
        assert.strictEqual(yield* rescheduled(first.id), 1)
        assert.strictEqual(yield* rescheduled(second.id), 1)

        const same = yield* send("POST", "/queue/swap", { postIds: [first.id, first.id] })
        assert.strictEqual(same.status, 400, same.text)
        assert.strictEqual(same.body.error.details[0].field, "postIds")

        // B's first slot is A's first, `second`'s since the swap: `first`, to A, cannot take it from the post to B.
        const onB = yield* queue([b])
        assert.strictEqual(onB.scheduledAt, first.scheduledAt)
        const taken = yield* send("POST", "/queue/swap", { postIds: [onB.id, first.id] })
        assert.strictEqual(taken.status, 409, taken.text)
        assert.include(taken.body.error.message, second.id)

        // B keeps even hours only: a post to both cannot take the odd hour of one of A's two posts.
        assert.strictEqual((yield* send("PUT", `/accounts/${b}/queue-schedule`, hourly("00", (index) => index % 2 === 0))).status, 200)
        const shared = yield* queue([a, b])
        // Their slots are two hours in a row: one of them is odd.
        const odd = new Date(yield* timeOf(first.id)).getUTCHours() % 2 === 1 ? first : second
        assert.strictEqual(new Date(yield* timeOf(odd.id)).getUTCHours() % 2, 1)
        const refused = yield* send("POST", "/queue/swap", { postIds: [odd.id, shared.id] })
        assert.strictEqual(refused.status, 400, refused.text)
        assert.deepStrictEqual(refused.body.error.details.map((problem: { field: string }) => problem.field), ["postIds.1"])
        assert.strictEqual((yield* send("POST", "/queue/swap", { postIds: [first.id, "pst_nobody"] })).status, 404)
      }))

    it.effect("shuffle keeps the set of times and permutes them only among posts to the same accounts", () =>
      Effect.gen(function*() {
        const { a, b, queue, send, timeOf } = yield* setup
        // B's own posts sit at half past, A's and the shared ones on the hour: three groups, three sets of times.
        assert.strictEqual((yield* send("PUT", "/queue/schedule", hourly())).status, 200)
        assert.strictEqual((yield* send("PUT", `/accounts/${b}/queue-schedule`, hourly("30"))).status, 200)
        const onB = [yield* queue([b]), yield* queue([b]), yield* queue([b])]
        const both = { slots: [...hourly("00").slots, ...hourly("30").slots] }
        assert.strictEqual((yield* send("PUT", `/accounts/${b}/queue-schedule`, both)).status, 200)
        const groups = {
          a: [yield* queue([a]), yield* queue([a]), yield* queue([a])],
          both: [yield* queue([a, b]), yield* queue([b, a])],
          b: onB
        }
        const timesOf = (posts: ReadonlyArray<{ readonly id: string }>) =>
          Effect.map(Effect.forEach(posts, (post) => timeOf(post.id)), (times) => times)
        const before = { a: yield* timesOf(groups.a), both: yield* timesOf(groups.both), b: yield* timesOf(groups.b) }

        const shuffled = yield* send("POST", "/queue/shuffle", {})
        assert.strictEqual(shuffled.status, 200, shuffled.text)
        const after = { a: yield* timesOf(groups.a), both: yield* timesOf(groups.both), b: yield* timesOf(groups.b) }
        for (const name of ["a", "both", "b"] as const) {
          assert.deepStrictEqual([...after[name]].sort(), [...before[name]].sort(), `${name} keeps its times`)
          assert.notDeepEqual(after[name], before[name], `${name} has a new order`)
        }
        const moved = shuffled.body.data.moved as ReadonlyArray<{ postId: string; from: string; to: string }>
        assert.strictEqual(moved.length + shuffled.body.data.unchanged, 8)
        for (const entry of moved) assert.strictEqual(yield* timeOf(entry.postId), entry.to)

        // One account's shuffle leaves the posts that do not go to it where they are.
        const onlyB = yield* send("POST", "/queue/shuffle", { accountId: b })
        assert.strictEqual(onlyB.status, 200, onlyB.text)
        assert.deepStrictEqual(yield* timesOf(groups.a), after.a)
        assert.isTrue((onlyB.body.data.moved as ReadonlyArray<{ postId: string }>).every((entry) =>
          !groups.a.some((post) => post.id === entry.postId)
        ))
        const view = (yield* send("GET", "/queue?limit=30")).body.data as ReadonlyArray<Item>
        assert.isTrue(view.every((item) => item.inSchedule))
      }))

    it.effect("editors read the queue but only owners, admins and workspace keys move posts", () =>
      Effect.gen(function*() {
        const { a, editor, queue, send } = yield* setup
        assert.strictEqual((yield* send("PUT", "/queue/schedule", hourly())).status, 200)
        const first = yield* queue([a])
        const second = yield* queue([a])
        assert.strictEqual((yield* editor("GET", "/queue")).status, 200)
        for (
          const [path, body] of [["/queue/shuffle", {}], ["/queue/rebuild", {}], ["/queue/move", {
            postId: first.id,
            at: second.scheduledAt
          }], ["/queue/swap", { postIds: [first.id, second.id] }]] as const
        ) {
          const refused = yield* editor("POST", path, body)
          assert.strictEqual(refused.status, 403, `${path}: ${refused.text}`)
          assert.strictEqual(refused.body.error.code, "forbidden")
        }
        assert.strictEqual((yield* send("POST", "/queue/shuffle", {})).status, 200)
      }))
  }
)
