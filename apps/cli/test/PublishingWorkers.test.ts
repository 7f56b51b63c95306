import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import * as Processes from "./processes.ts"

// Scale-out on one PostgreSQL: an API process and two workers (`HERALD_ROLE`) share the publishing work
// through the cluster. One worker is killed (SIGKILL) while posts are going out; the other takes its
// shards over, and every post goes out exactly once. Runs when HERALD_TEST_DATABASE_URL names a server.
const herald = Processes.make("workers")

describe.skipIf(!Processes.available)("publishing with two workers on PostgreSQL", () => {
  beforeAll(() => herald.create(), 60_000)

  afterAll(() => herald.dispose(), 60_000)

  it("shares the posts between the workers, survives one being killed, and posts each exactly once", async () => {
    const api = await herald.start("api", { HERALD_ROLE: "api", PORT: "0", HERALD_RATE_LIMIT_PER_MINUTE: "100000" })
    // Its public address, which the workers are given too, so that both name the sandbox's links alike.
    const base: string = api.ready.api.replace(/\/api\/v1$/, "")
    assert.strictEqual(api.ready.role, "api")
    const key: string = api.ready.firstRun.key.key
    const accountIds: Array<string> = api.ready.firstRun.accounts
      .filter((account: any) => ["x", "linkedin", "facebook"].includes(account.platform))
      .map((account: any) => account.id)
    assert.strictEqual(accountIds.length, 3)
    // The workers call the sandbox networks where the API process serves them.
    const workers = await Promise.all(["one", "two"].map((name) =>
      herald.start(`worker-${name}`, { HERALD_ROLE: "worker", PORT: "0", BASE_URL: base })
    ))
    assert.deepStrictEqual(workers.map((worker) => worker.ready.role), ["worker", "worker"])
    assert.notStrictEqual(workers[0]!.ready.runner, workers[1]!.ready.runner)
    await herald.shardsShared(2)

    // 40 posts of 3 targets, one every 100 ms from 2 s from now.
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

    // Kill one worker while the posts are going out.
    await new Promise((wait) => setTimeout(wait, first + 1_500 - Date.now()))
    workers[0]!.child.kill("SIGKILL")

    const get = async (id: string): Promise<any> =>
      ((await (await fetch(`${base}/api/v1/posts/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as any).data
    const until = Date.now() + 90_000
    let posts: Array<any> = []
    while (Date.now() < until) {
      posts = await Promise.all(ids.map(get))
      if (posts.every((post) => post.status === "published" || post.status === "partial" || post.status === "failed")) break
      await new Promise((wait) => setTimeout(wait, 250))
    }
    const stuck = posts.filter((post) => post.status !== "published")
    assert.deepStrictEqual(stuck.map((post) => `${post.id}: ${post.status} ${JSON.stringify(post.targets)}`), [])

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
    // Both workers did some of the work before one was killed, each target sent logged as one line.
    const logs = workers.map((worker) => readFileSync(worker.log, "utf8"))
    const attempt = /level=INFO .*message="target sent" post=pst_\w+ target=acc_\w+ network=(x|linkedin|facebook) outcome=published calls=1 last=publish:Published durationMs=\d+/
    for (const log of logs) assert.match(log, attempt)
  })
})
