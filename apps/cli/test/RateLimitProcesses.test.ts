import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import * as Processes from "./processes.ts"

// The rate limit holds exactly on PostgreSQL: a 300-request burst with one key (limit 120) is answered
// 120 times, and 180 times `429 rate_limited`, whether one process serves it or two share it. Runs when
// HERALD_TEST_DATABASE_URL names a server.
const herald = Processes.make("ratelimit")

/** Sends `count` requests at once, the `i`th request to `bases[i % bases.length]`. */
const burst = (bases: ReadonlyArray<string>, key: string, count = 300) =>
  Promise.all(Array.from({ length: count }, async (_, index) => {
    const answer = await fetch(`${bases[index % bases.length]}/api/v1/accounts`, {
      headers: { authorization: `Bearer ${key}` }
    })
    return { status: answer.status, headers: answer.headers, body: (await answer.json()) as any }
  }))

/** Out of the last seconds of a minute, so the burst falls in one window. */
const oneWindow = async () => {
  const intoMinute = Date.now() % 60_000
  if (intoMinute > 50_000) await new Promise((wait) => setTimeout(wait, 60_500 - intoMinute))
}

const assertExact = (answers: Awaited<ReturnType<typeof burst>>) => {
  const admitted = answers.filter((answer) => answer.status === 200)
  const refused = answers.filter((answer) => answer.status === 429)
  assert.strictEqual(admitted.length, 120, `statuses: ${JSON.stringify(answers.map((answer) => answer.status))}`)
  assert.strictEqual(refused.length, 180)
  for (const answer of refused) {
    assert.strictEqual(answer.body.error.code, "rate_limited")
    assert.match(answer.body.error.message, /Rate limit of 120 requests per minute reached/)
    assert.match(answer.headers.get("ratelimit")!, /^"default";r=0;t=\d+$/)
    assert.match(answer.headers.get("retry-after")!, /^\d+$/)
  }
  for (const answer of admitted) {
    assert.strictEqual(answer.headers.get("ratelimit-policy"), `"default";q=120;w=60`)
  }
  return admitted.map((answer) => Number(/r=(\d+)/.exec(answer.headers.get("ratelimit")!)![1]))
}

describe.skipIf(!Processes.available)("the rate limit with PostgreSQL", () => {
  let first: Processes.Started
  let second: Processes.Started

  beforeAll(async () => {
    await herald.create()
    first = await herald.start("one", { PORT: "0", HERALD_RATE_LIMIT_PER_MINUTE: "120" })
    second = await herald.start("two", { PORT: "0", HERALD_RATE_LIMIT_PER_MINUTE: "120" })
  })

  afterAll(() => herald.dispose(), 60_000)

  it("one process admits exactly 120 of a 300-request burst, and says exactly how many remain", async () => {
    await oneWindow()
    const remaining = assertExact(await burst([first.ready.listening], first.ready.firstRun.key.key))
    assert.deepStrictEqual(remaining.sort((a, b) => b - a), Array.from({ length: 120 }, (_, index) => 119 - index))
  })

  it("two processes sharing the burst of one key admit exactly 120 of 300 together", async () => {
    const created = await herald.herald("key", "create", "--workspace", first.ready.firstRun.workspace.id)
    await oneWindow()
    // One request through each process first, so both hold permits when the rest arrive at once (which of
    // them wins the burst's permits is the machine's timing), then the other 298 split between them.
    const opening = [
      await burst([first.ready.listening], created.key, 1),
      await burst([second.ready.listening], created.key, 1)
    ].flat()
    assert.deepStrictEqual(opening.map((answer) => answer.status), [200, 200])
    const answers = [...opening, ...await burst([first.ready.listening, second.ready.listening], created.key, 298)]
    assertExact(answers)
  })
})
