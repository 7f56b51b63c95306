import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import * as Processes from "./processes.ts"
import { skipIf } from "../../../testing/skipIf.ts"

// The queue is never double-booked across processes (docs/queue.md): 50 queued creates at one account, sent
// at once and split between two Herald processes on one PostgreSQL database, take 50 different slots, each
// held by one seat. Runs when HERALD_TEST_DATABASE_URL names a server.
const herald = Processes.make("queue")

// Every hour of the week: 168 slots, so 50 posts fit in the next three days.
const hourly = {
  slots: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].flatMap((day) =>
    Array.from({ length: 24 }, (_, hour) => ({ day, time: `${String(hour).padStart(2, "0")}:00` })))
}

describe("the queue shared by two processes on PostgreSQL", skipIf(Processes.missing), () => {
  let first: Processes.Started
  let second: Processes.Started

  beforeAll(async () => {
    await herald.create()
    first = await herald.start("first", { PORT: "0", HERALD_RATE_LIMIT_PER_MINUTE: "100000" })
    second = await herald.start("second", { PORT: "0", HERALD_RATE_LIMIT_PER_MINUTE: "100000" })
  })

  afterAll(() => herald.dispose())

  it("50 concurrent queued creates at one account, half through each process, get 50 distinct slots", async () => {
    const key: string = first.ready.firstRun.key.key
    const account: string = first.ready.firstRun.accounts.find((entry: any) => entry.platform === "facebook").id
    const send = (base: string, method: string, path: string, body: unknown) =>
      fetch(`${base}/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(body)
      }).then(async (answer) => ({ status: answer.status, text: await answer.text() }))

    const schedule = await send(first.ready.listening, "PUT", "/queue/schedule", hourly)
    assert.strictEqual(schedule.status, 200, schedule.text)
    const bases = [first.ready.listening, second.ready.listening]
    const answers = await Promise.all(Array.from({ length: 50 }, (_, index) =>
      send(bases[index % 2], "POST", "/posts", { content: `Queued ${index}`, accountIds: [account], queued: true })))
    const posts = answers.map((answer) => {
      assert.strictEqual(answer.status, 200, answer.text)
      return JSON.parse(answer.text).data
    })
    for (const post of posts) assert.deepInclude(post, { status: "scheduled", queued: true })
    const times = new Set(posts.map((post) => post.scheduledAt))
    assert.strictEqual(times.size, 50, `slots: ${[...times].sort().join(", ")}`)

    // One seat per post, at the post's time, for the account.
    const seats = (await herald.psql(
      `SELECT post_id || ' ' || to_char(slot_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') FROM queue_seats
       WHERE account_id = '${account}' ORDER BY slot_at`
    )).split("\n").filter((line) => line !== "")
    assert.strictEqual(seats.length, 50)
    assert.deepStrictEqual(
      [...seats].sort(),
      posts.map((post) => `${post.id} ${post.scheduledAt}`).sort()
    )
  })
})
