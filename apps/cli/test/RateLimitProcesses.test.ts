import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { patience } from "../../../vitest.shared.ts"
import * as Processes from "./processes.ts"
import { skipIf } from "../../../testing/skipIf.ts"

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

const minuteOf = (time: number) => Math.floor(time / 60_000)

/**
 * The answers of `send` with a new key, whose count starts at nothing, from a try that fell in one window
 * (the limit's windows are the clock's minutes): a try that a minute's end cut in two, however long the
 * machine took over it, is made again with another key, in the next minute.
 */
const inOneWindow = async <A>(newKey: () => Promise<string>, send: (key: string) => Promise<A>) => {
  const until = Date.now() + patience
  for (;;) {
    const key = await newKey()
    const sent = Date.now()
    const answers = await send(key)
    if (minuteOf(sent) === minuteOf(Date.now())) return answers
    if (Date.now() > until) throw new Error(`no try fell within one minute in ${patience / 1000} s`)
  }
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

describe("the rate limit with PostgreSQL", skipIf(Processes.missing), () => {
  let first: Processes.Started
  let second: Processes.Started
  /** A new key of the Demo workspace, made through the API with the Demo key (which no burst uses). */
  const newKey = async () => {
    const answer = await fetch(`${first.ready.listening}/api/v1/keys`, {
      method: "POST",
      headers: { authorization: `Bearer ${first.ready.firstRun.key.key}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "burst" })
    })
    assert.strictEqual(answer.status, 201, await answer.clone().text())
    return ((await answer.json()) as any).data.key as string
  }

  beforeAll(async () => {
    await herald.create()
    first = await herald.start("one", { PORT: "0", HERALD_RATE_LIMIT_PER_MINUTE: "120" })
    second = await herald.start("two", { PORT: "0", HERALD_RATE_LIMIT_PER_MINUTE: "120" })
  })

  afterAll(() => herald.dispose())

  it("one process admits exactly 120 of a 300-request burst, and says exactly how many remain", async () => {
    const remaining = assertExact(await inOneWindow(newKey, (key) => burst([first.ready.listening], key)))
    assert.deepStrictEqual(remaining.sort((a, b) => b - a), Array.from({ length: 120 }, (_, index) => 119 - index))
  })

  it("two processes sharing the burst of one key admit exactly 120 of 300 together", async () => {
    // One request through each process first, so both hold permits when the rest arrive at once (which of
    // them wins the burst's permits is the machine's timing), then the other 298 split between them.
    const answers = await inOneWindow(newKey, async (key) => {
      const opening = [
        await burst([first.ready.listening], key, 1),
        await burst([second.ready.listening], key, 1)
      ].flat()
      return [...opening, ...await burst([first.ready.listening, second.ready.listening], key, 298)]
    })
    assert.deepStrictEqual(answers.slice(0, 2).map((answer) => answer.status), [200, 200])
    assertExact(answers)
  })
})
