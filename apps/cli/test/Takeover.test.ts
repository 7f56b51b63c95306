import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import * as Processes from "./processes.ts"

// A worker killed with SIGKILL has its shards taken over by the other within seconds: the posts due on its
// shards are published by the survivor, which logs "took over N shards of runner R". A worker frozen for
// a second and a half loses nothing. Runs when HERALD_TEST_DATABASE_URL names a server.
const herald = Processes.make("takeover")
const takeoverLine = /message="took over (\d+) shards of runner ([^"]+)"/

describe.skipIf(!Processes.available)("cluster takeover with PostgreSQL", () => {
  let api: Processes.Started
  let workers: Array<Processes.Started>

  beforeAll(async () => {
    await herald.create()
    api = await herald.start("api", { HERALD_ROLE: "api", PORT: "0", HERALD_RATE_LIMIT_PER_MINUTE: "100000" })
    // The workers call the sandbox networks where the API process serves them.
    workers = await Promise.all(["one", "two"].map((name) =>
      herald.start(`worker-${name}`, { HERALD_ROLE: "worker", PORT: "0", BASE_URL: api.ready.listening })
    ))
    await herald.shardsShared(2)
  })

  afterAll(() => herald.dispose(), 60_000)

  it("a worker frozen for 1.5 s keeps its shards", async () => {
    workers[1]!.child.kill("SIGSTOP")
    await new Promise((wait) => setTimeout(wait, 1_500))
    workers[1]!.child.kill("SIGCONT")
    // Longer than the shard lock expiry (6 s): a takeover would have happened by now.
    await new Promise((wait) => setTimeout(wait, 8_000))
    assert.notMatch(readFileSync(workers[0]!.log, "utf8"), takeoverLine)
  })

  it("publishes a killed worker's posts from the other within 15 s, and logs the takeover", async () => {
    const key: string = api.ready.firstRun.key.key
    const accountIds: Array<string> = api.ready.firstRun.accounts
      .filter((account: any) => account.platform === "x" || account.platform === "linkedin")
      .map((account: any) => account.id)
    // 20 posts due 1 s after the kill: about half of them hash to the killed worker's shards.
    const killAt = Date.now() + 3_000
    const ids: Array<string> = []
    for (let index = 0; index < 20; index++) {
      const answer = await fetch(`${api.ready.listening}/api/v1/posts`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ content: `Takeover ${index}`, accountIds, scheduledAt: new Date(killAt + 1_000).toISOString() })
      })
      assert.strictEqual(answer.status, 200, await answer.clone().text())
      ids.push(((await answer.json()) as any).data.id)
    }
    await new Promise((wait) => setTimeout(wait, killAt - Date.now()))
    const [victim, survivor] = workers as [Processes.Started, Processes.Started]
    victim.child.kill("SIGKILL")
    const killed = Date.now()

    let statuses: Array<string> = []
    while (Date.now() < killed + 15_000) {
      statuses = await Promise.all(ids.map(async (id) => {
        const answer = await fetch(`${api.ready.listening}/api/v1/posts/${id}`, { headers: { authorization: `Bearer ${key}` } })
        return ((await answer.json()) as any).data.status as string
      }))
      if (statuses.every((status) => status === "published")) break
      await new Promise((wait) => setTimeout(wait, 250))
    }
    assert.deepStrictEqual(statuses, ids.map(() => "published"), `after ${Date.now() - killed} ms`)

    // The survivor looks at its shards once a second, so its line can follow the posts by up to a second.
    let took = takeoverLine.exec(readFileSync(survivor.log, "utf8"))
    for (let wait = 0; took === null && wait < 20; wait++) {
      await new Promise((resolveWait) => setTimeout(resolveWait, 250))
      took = takeoverLine.exec(readFileSync(survivor.log, "utf8"))
    }
    assert.isNotNull(took, "the survivor logs the takeover")
    assert.strictEqual(took![2], victim.ready.runner)
    assert.isAtLeast(Number(took![1]), 1)
    // Each post went out once.
    const made: Array<any> = ((await (await fetch(`${api.ready.listening}/sandbox/x/_posts`, { headers: { authorization: `Bearer ${key}` } })).json()) as any).data
    for (let index = 0; index < ids.length; index++) {
      assert.strictEqual(made.filter((item) => item.text === `Takeover ${index}`).length, 1)
    }
  })
})
