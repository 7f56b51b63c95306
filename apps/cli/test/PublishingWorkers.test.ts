import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import * as Processes from "./processes.ts"
import { skipIf } from "../../../testing/skipIf.ts"

// Scale-out on one PostgreSQL: an API process and two workers (`HERALD_ROLE`) share the publishing work
// through the cluster. A worker frozen for a second and a half loses nothing. A worker killed (SIGKILL)
// while posts are going out has its shards taken over by the other, which logs "took over N shards of
// runner R" and publishes the rest, and every post goes out exactly once. How soon a takeover comes
// (within 10 s) is bench/takeover's figure: here each step is waited for with the tests' patience. Runs
// when HERALD_TEST_DATABASE_URL names a server.
const herald = Processes.make("workers")
const takeoverLine = /message="took over (\d+) shards of runner ([^"]+)"/

describe("publishing with two workers on PostgreSQL", skipIf(Processes.missing), () => {
  let api: Processes.Started
  /** The API process's public address, which the workers are given too, so that all name the sandbox's links alike. */
  let base: string
  let workers: Array<Processes.Started>
  /** The shard locks each worker held once they had shared the shards. */
  let split: string

  beforeAll(async () => {
    await herald.create()
    api = await herald.start("api", { HERALD_ROLE: "api", PORT: "0", HERALD_RATE_LIMIT_PER_MINUTE: "100000" })
    base = api.ready.api.replace(/\/api\/v1$/, "")
    // The workers call the sandbox networks where the API process serves them.
    workers = await Promise.all(["one", "two"].map((name) =>
      herald.start(`worker-${name}`, { HERALD_ROLE: "worker", PORT: "0", BASE_URL: base })
    ))
    split = await herald.shardsShared(2)
  })

  afterAll(() => herald.dispose())

  it("a worker frozen for 1.5 s keeps its shards", async () => {
    assert.strictEqual(api.ready.role, "api")
    assert.deepStrictEqual(workers.map((worker) => worker.ready.role), ["worker", "worker"])
    assert.notStrictEqual(workers[0]!.ready.runner, workers[1]!.ready.runner)
    const frozen = workers[1]!
    const heartbeat = () => herald.psql(`SELECT last_heartbeat FROM cluster_runners WHERE address = '${frozen.ready.runner}'`)
    frozen.child.kill("SIGSTOP")
    await new Promise((wait) => setTimeout(wait, 1_500))
    // Read while it cannot write: the heartbeat it wrote before the pause.
    const paused = await heartbeat()
    frozen.child.kill("SIGCONT")
    // Its next heartbeat (every 2 s) makes it a live runner to the others again, whose view of it was at
    // most the pause and one interval old (the lock expiry is 6 s); then the split settles as it was.
    const resumed = await Processes.poll(heartbeat, (written) => written !== paused)
    assert.notStrictEqual(resumed, paused, "the frozen worker writes its heartbeat again")
    assert.strictEqual(await herald.shardsShared(2), split)
    assert.notMatch(readFileSync(workers[0]!.log, "utf8"), takeoverLine)
  })

  it("shares the posts between the workers; one killed while they go out has the rest published by the other, which logs the takeover; each goes out once", async () => {
    const key: string = api.ready.firstRun.key.key
    const accountIds: Array<string> = api.ready.firstRun.accounts
      .filter((account: any) => ["x", "linkedin", "facebook"].includes(account.platform))
      .map((account: any) => account.id)
    assert.strictEqual(accountIds.length, 3)

    // 40 posts of 3 targets, one every 100 ms from 2 s from now: about half on each worker's shards.
    const first = Date.now() + 2_000
    const ids: Array<string> = []
    for (let index = 0; index < 40; index++) {
      const answer = await fetch(`${base}/api/v1/posts`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({
          content: `Shared work ${index}`,
          accountIds,
          scheduledAt: new Date(first + index * 100).toISOString()
        })
      })
      assert.strictEqual(answer.status, 200, await answer.clone().text())
      ids.push(((await answer.json()) as any).data.id)
    }

    // Kill one worker while the posts are going out: once each worker has sent some (whenever that is on
    // this machine), with the later ones still due.
    const attempt = /level=INFO .*message="target sent" post=pst_\w+ target=acc_\w+ network=(x|linkedin|facebook) outcome=published calls=1 last=publish:Published durationMs=\d+/
    const logs = () => workers.map((worker) => readFileSync(worker.log, "utf8"))
    const before = await Processes.poll(async () => logs(), (now) => now.every((log) => attempt.test(log)))
    // Both workers did some of the work, each target sent logged as one line.
    for (const log of before) assert.match(log, attempt)
    const [victim, survivor] = workers as [Processes.Started, Processes.Started]
    victim.child.kill("SIGKILL")

    const get = async (id: string): Promise<any> =>
      ((await (await fetch(`${base}/api/v1/posts/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as any).data
    const ended = new Set(["published", "partial", "failed"])
    const posts = await Processes.poll(() => Promise.all(ids.map(get)), (now) => now.every((post) => ended.has(post.status)))
    const stuck = posts.filter((post) => post.status !== "published")
    assert.deepStrictEqual(stuck.map((post) => `${post.id}: ${post.status} ${JSON.stringify(post.targets)}`), [])

    // The survivor looks at its shards once a second, so its line can follow the posts.
    const took = await Processes.poll(async () => takeoverLine.exec(readFileSync(survivor.log, "utf8")), (line) => line !== null)
    assert.isNotNull(took, "the survivor logs the takeover")
    assert.strictEqual(took![2], victim.ready.runner)
    assert.isAtLeast(Number(took![1]), 1)

    // Each network holds each post exactly once, and it is the one linked.
    for (const platform of ["x", "linkedin", "facebook"]) {
      const made: Array<any> = ((await (await fetch(`${base}/sandbox/${platform}/_posts`, { headers: { authorization: `Bearer ${key}` } })).json()) as any).data
      for (let index = 0; index < ids.length; index++) {
        const copies = made.filter((item) => item.text === `Shared work ${index}`)
        assert.strictEqual(copies.length, 1, `${platform}: "Shared work ${index}" ${copies.length} times`)
        const target = posts[index].targets.find((entry: any) => entry.platform === platform)
        assert.strictEqual(target.url, copies[0].url)
      }
    }
  })
})
