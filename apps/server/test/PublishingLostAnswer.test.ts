import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { HttpClient, HttpClientError, UrlParams } from "effect/http"
import type { NetworkPackage } from "../src/NetworkPackages.ts"
import * as Packages from "../src/Packages.ts"
import { fastTuning, serverLayer } from "./harness.ts"
import { settled, setup, simulated } from "./publishing.ts"

// A network blip is not a crash: the network takes a call and acts on it, the connection drops before its
// answer reaches Herald, and Herald goes on in the same process. Through the whole server and its engine, the
// post ends published, once on the network, with each of its parts once.

/** The calls to lose, in turn: the network, `METHOD /path?query` under its root, and how many such calls go through first. */
const losses: Array<{ readonly network: string; readonly call: RegExp; skip: number }> = []

/** The network's adapter, its HTTP client losing the answer of the next armed call after the network answered it. */
const losing = (entry: NetworkPackage): NetworkPackage => ({
  ...entry,
  make: (config) =>
    Effect.updateService(entry.make(config), HttpClient.HttpClient, (client) =>
      HttpClient.transform(client, (response, request) =>
        Effect.flatMap(response, (answer) => {
          const query = UrlParams.toString(request.urlParams)
          const call = `${request.method} ${new URL(request.url).pathname.replace(/^\/sandbox\/[^/]+/, "")}${query === "" ? "" : `?${query}`}`
          const next = losses[0]
          if (next === undefined || next.network !== entry.network || !next.call.test(call)) return Effect.succeed(answer)
          if (next.skip-- > 0) return Effect.succeed(answer)
          losses.shift()
          return Effect.andThen(
            Effect.ignore(answer.arrayBuffer),
            Effect.fail(
              new HttpClientError.HttpClientError({
                reason: new HttpClientError.TransportError({ request, description: "the connection dropped before the answer arrived" })
              })
            )
          )
        })))
})

const packages = Packages.all.filter((entry) => ["threads", "mastodon", "facebook"].includes(entry.network)).map(losing)

layer(serverLayer({}, packages), { excludeTestServices: true })("an answer lost in transit", (it) => {
  it.effect("threads: the post's link read is lost; the post and its first comment are on Threads once, and linked", () =>
    Effect.gen(function*() {
      const { accounts, create, get } = yield* setup(["threads"])
      const content = `Lost link ${Date.now()}`
      // The post's link: `GET /v1.0/{media-id}?fields=id,permalink`, read once Threads has published the post.
      losses.push({ network: "threads", call: /^GET \/v1\.0\/\d+\?.*fields=id(,|%2C)permalink/, skip: 0 })
      const post = yield* create({ content, firstComment: `${content}, first comment`, accountIds: [accounts["threads"]], publishNow: true })
      const done = yield* settled(get, post.id)
      assert.deepStrictEqual(losses, [], "an armed call was never made")
      assert.strictEqual(done.status, "published", JSON.stringify(done.targets))
      const made = yield* simulated("threads", accounts["threads"]!)
      const posts = made.filter((item) => item.text === content)
      assert.strictEqual(posts.length, 1, `posted ${posts.length} times`)
      assert.strictEqual(made.filter((item) => item.text === `${content}, first comment`).length, 1)
      assert.strictEqual(done.targets[0].url, posts[0]!.url)
    }))

  it.effect("mastodon: a thread reply's answer is lost; the step looks first, and the thread and first comment are there once", () =>
    Effect.gen(function*() {
      const { accounts, create, get } = yield* setup(["mastodon"])
      const content = `1/ lost reply ${Date.now()}`
      // The second status sent is the thread's first reply.
      losses.push({ network: "mastodon", call: /^POST \/api\/v1\/statuses$/, skip: 1 })
      const post = yield* create({
        content,
        firstComment: `${content}, first comment`,
        platformOptions: { mastodon: { thread: [`${content} 2/`, `${content} 3/`] } },
        accountIds: [accounts["mastodon"]],
        publishNow: true
      })
      const done = yield* settled(get, post.id)
      assert.deepStrictEqual(losses, [], "an armed call was never made")
      assert.strictEqual(done.status, "published", JSON.stringify(done.targets))
      const made = [...(yield* simulated("mastodon", accounts["mastodon"]!))].reverse()
      assert.deepStrictEqual(
        made.map((item) => item.text),
        [content, `${content} 2/`, `${content} 3/`, `${content}, first comment`]
      )
      assert.strictEqual(done.targets[0].url, made[0]!.url)
    }))
})

// Long waits between tries, so the target row can be read while it waits.
const slowRetries = { ...fastTuning, publishing: { ...fastTuning.publishing, baseDelayMs: 2_000, maxDelayMs: 4_000 } }

layer(serverLayer({}, packages, undefined, slowRetries), { excludeTestServices: true })("an answer lost, then a look failing", (it) => {
  it.effect("facebook: the first comment's answer is lost and the look after it fails in passing; the row keeps looking first across the waits", () =>
    Effect.gen(function*() {
      const { accounts, create, get, key } = yield* setup(["facebook"])
      const sql = yield* SqlClient.SqlClient
      const content = `Lost comment ${Date.now()}`
      losses.push(
        { network: "facebook", call: /^POST \/v[\d.]+\/[^/]+\/comments$/, skip: 0 },
        { network: "facebook", call: /^GET \/v[\d.]+\/[^/]+\/comments/, skip: 0 }
      )
      const post = yield* create({ content, firstComment: `${content}, first comment`, accountIds: [accounts["facebook"]], publishNow: true })
      // While waiting after each failure, the row says a step is under way, so a restart would look first too.
      const calls: Array<string | null> = []
      for (const failures of [1, 2]) {
        for (let tries = 0;; tries++) {
          assert.isBelow(tries, 100, `no failure ${failures} recorded`)
          const [row] = yield* sql<{ readonly call: string | null; readonly failedAttempts: number }>`
            SELECT call, failed_attempts FROM post_targets WHERE post_id = ${post.id}`
          if (row!.failedAttempts >= failures) {
            calls.push(row!.call)
            break
          }
          yield* Effect.sleep("100 millis")
        }
      }
      assert.deepStrictEqual(calls, ["poll", "poll"])
      const done = yield* settled(get, post.id)
      assert.deepStrictEqual(losses, [], "an armed call was never made")
      assert.strictEqual(done.status, "published", JSON.stringify(done.targets))
      const made = yield* simulated("facebook", accounts["facebook"]!)
      assert.strictEqual(made.filter((item) => item.text === content).length, 1)
      const page = yield* Effect.promise(() =>
        fetch(`${done.targets[0].url.split("/sandbox/")[0]}/sandbox/facebook/_posts`, { headers: { authorization: `Bearer ${key.key}` } })
          .then((answer) => answer.json() as Promise<{ readonly comments: ReadonlyArray<{ readonly text: string }> }>)
      )
      assert.strictEqual(page.comments.filter((comment) => comment.text === `${content}, first comment`).length, 1)
    }))
})
