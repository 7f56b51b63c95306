import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import * as Processes from "./processes.ts"
import { skipIf } from "../../../testing/skipIf.ts"

// Two Herald processes on one PostgreSQL, each serving the sandbox networks at its own address and
// publishing through them: the Facebook Page token the first process's simulator issued when the Demo
// account connected works on the second's, so every post goes out wherever its shard runs, both processes'
// simulators show every post, and each post's link opens on either process. A sandbox Mastodon account, whose
// instance is the first process's sandbox address, publishes through the second while the first is down. Runs when
// HERALD_TEST_DATABASE_URL names a server.
const herald = Processes.make("sandbox")

describe("the sandbox shared by two processes on PostgreSQL", skipIf(Processes.missing), () => {
  let first: Processes.Started
  let second: Processes.Started

  beforeAll(async () => {
    await herald.create()
    first = await herald.start("first", { PORT: "0", HERALD_RATE_LIMIT_PER_MINUTE: "100000" })
    second = await herald.start("second", { PORT: "0", HERALD_RATE_LIMIT_PER_MINUTE: "100000" })
    await herald.shardsShared(2)
  })

  afterAll(() => herald.dispose())

  /** Posts `count` texts to `accountId` now through `through`, and resolves with them once each has ended. */
  const publishAll = async (through: Processes.Started, key: string, accountId: string, text: string, count: number) => {
    const ids: Array<string> = []
    for (let index = 0; index < count; index++) {
      const answer = await fetch(`${through.ready.listening}/api/v1/posts`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ content: `${text} ${index}`, accountIds: [accountId], publishNow: true })
      })
      assert.strictEqual(answer.status, 200, await answer.clone().text())
      ids.push(((await answer.json()) as any).data.id)
    }
    const ended = new Set(["published", "partial", "failed"])
    const posts = await Processes.poll(
      () =>
        Promise.all(ids.map(async (id) =>
          ((await (await fetch(`${second.ready.listening}/api/v1/posts/${id}`, { headers: { authorization: `Bearer ${key}` } })).json()) as any).data
        )),
      (now) => now.every((post) => ended.has(post.status))
    )
    assert.deepStrictEqual(posts.map((post) => post.status), ids.map(() => "published"), JSON.stringify(posts.map((post) => post.targets)))
    return posts
  }

  it("publishes to the Facebook sandbox account from either process, and both show every post", async () => {
    const key: string = first.ready.firstRun.key.key
    const facebook = first.ready.firstRun.accounts.find((account: any) => account.platform === "facebook").id
    // Posts hash to the shards of both processes; each process publishes through its own simulators.
    const posts = await publishAll(first, key, facebook, "Shared sandbox", 12)
    const accounts = (await (await fetch(`${second.ready.listening}/api/v1/accounts`, { headers: { authorization: `Bearer ${key}` } })).json()) as any
    assert.strictEqual(accounts.data.find((account: any) => account.id === facebook).status, "connected")
    const links = posts.map((post) => post.targets[0].url as string)
    // Each process published some (12 posts land on one process's shards alone about once in 2,000 runs).
    const ports = new Set(links.map((link) => new URL(link).port))
    assert.deepStrictEqual([...ports].sort(), [first, second].map((process) => new URL(process.ready.listening).port).sort())
    for (const process of [first, second]) {
      const shown = ((await (await fetch(`${process.ready.listening}/sandbox/facebook/_posts`, { headers: { authorization: `Bearer ${key}` } })).json()) as any).data
      const urls = new Set(shown.map((post: any) => post.url))
      assert.isTrue(links.every((link) => urls.has(link)), `${process.ready.listening} misses some of ${links.join(", ")}`)
    }
    // A link opens its page on the process that did not publish it too (the link names the publisher's address).
    for (const link of links) {
      const other = [first, second].find((process) => new URL(process.ready.listening).port !== new URL(link).port)!
      const url = new URL(link)
      const page = await fetch(`${other.ready.listening}${url.pathname}${url.search}`)
      assert.strictEqual(page.status, 200, `${link} on ${other.ready.listening}`)
      assert.include(await page.text(), "Shared sandbox ")
    }
  })

  it("publishes to the Mastodon sandbox account, connected through the first process, while that process is down", async () => {
    const key: string = first.ready.firstRun.key.key
    const mastodon = first.ready.firstRun.accounts.find((account: any) => account.platform === "mastodon").id
    // The account's instance is the first process's sandbox address, which the second serves too.
    const stored = await herald.psql(`SELECT server FROM accounts WHERE id = '${mastodon}'`)
    assert.strictEqual(stored, `${first.ready.listening.replace("127.0.0.1", "localhost")}/sandbox/mastodon`)
    await herald.stop(first.child)
    await herald.shardsShared(1)
    await publishAll(second, key, mastodon, "Instance of the first process", 3)
  })
})
