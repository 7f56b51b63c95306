import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { HttpClient, HttpClientError, type HttpClientRequest, HttpClientResponse, UrlParams } from "effect/http"
import type { NetworkPackage } from "../src/NetworkPackages.ts"
import * as Packages from "../src/Packages.ts"
import { eventually } from "../../../testing/eventually.ts"
import { fastTuning, serverLayer } from "./harness.ts"
import { settled, setup, simulated } from "./publishing.ts"

// A network blip is not a crash: the network takes a call and acts on it, the connection drops before its
// answer reaches Herald, and Herald goes on in the same process. Through the whole server and its engine, the
// post ends published, once on the network, with each of its parts once.

/** The calls to lose, in turn: the network, `METHOD /path?query` under its root, and how many such calls go through first. */
const losses: Array<{ readonly network: string; readonly call: RegExp; skip: number; readonly as?: "503" }> = []

/** The calls to hold back, in turn, until the test lets them go: the network, `METHOD /path?query`, and the latch. */
const holds: Array<{ readonly network: string; readonly call: RegExp; readonly until: Promise<void> }> = []

/** A call as the tables above name it: `METHOD /path?query` under the network's root. */
const callOf = (request: HttpClientRequest.HttpClientRequest) => {
  const query = UrlParams.toString(request.urlParams)
  return `${request.method} ${new URL(request.url).pathname.replace(/^\/sandbox\/[^/]+/, "")}${query === "" ? "" : `?${query}`}`
}

/**
 * The network's adapter, its HTTP client holding the next held call back until the test lets it go, and
 * losing the answer of the next armed call after the network answered it.
 */
const losing = (entry: NetworkPackage): NetworkPackage => ({
  ...entry,
  make: (config) =>
    Effect.updateService(entry.make(config), HttpClient.HttpClient, (client) =>
      HttpClient.transform(client, (response, request) =>
        Effect.flatMap(Effect.suspend(() => {
          const held = holds[0]
          if (held === undefined || held.network !== entry.network || !held.call.test(callOf(request))) return response
          holds.shift()
          return Effect.andThen(Effect.promise(() => held.until), response)
        }), (answer) => {
          const call = callOf(request)
          const next = losses[0]
          if (next === undefined || next.network !== entry.network || !next.call.test(call)) return Effect.succeed(answer)
          if (next.skip-- > 0) return Effect.succeed(answer)
          losses.shift()
          // The network acted, then its front answered a passing error (a proxy, a store that failed after the write).
          if (next.as === "503") {
            return Effect.as(
              Effect.ignore(answer.arrayBuffer),
              HttpClientResponse.fromWeb(request, new Response(JSON.stringify({ title: "Service Unavailable", status: 503 }), { status: 503 }))
            )
          }
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

const packages = Packages.all.filter((entry) => ["threads", "mastodon", "facebook", "x", "instagram"].includes(entry.network)).map(losing)

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

  it.effect("instagram: a story's container status read is lost; its container says it is not published, and the story goes out once", () =>
    Effect.gen(function*() {
      const { accounts, create, get, uploadVideo } = yield* setup(["instagram"])
      // The first read of the container's status: a story has no caption to be looked for, so only the
      // container can tell that nothing was published.
      losses.push({ network: "instagram", call: /^GET \/v[\d.]+\/[^/?]+\?.*fields=status_code/, skip: 0 })
      const post = yield* create({
        content: `Lost status read ${Date.now()}`,
        instagramFormat: "story",
        mediaIds: [yield* uploadVideo],
        accountIds: [accounts["instagram"]],
        publishNow: true
      })
      const done = yield* settled(get, post.id)
      assert.deepStrictEqual(losses, [], "an armed call was never made")
      assert.strictEqual(done.status, "published", JSON.stringify(done.targets))
      const made = yield* simulated("instagram", accounts["instagram"]!)
      assert.strictEqual(made.length, 1, `posted ${made.length} times`)
      assert.strictEqual(done.targets[0].url, made[0]!.url)
    }))

  it.effect("x: the post is made but answered 503; the next try looks first and does not send it again", () =>
    Effect.gen(function*() {
      const { accounts, create, get } = yield* setup(["x"])
      const content = `Spoiled answer ${Date.now()}`
      losses.push({ network: "x", call: /^POST \/2\/tweets$/, skip: 0, as: "503" })
      const post = yield* create({ content, accountIds: [accounts["x"]], publishNow: true })
      const done = yield* settled(get, post.id)
      assert.deepStrictEqual(losses, [], "an armed call was never made")
      assert.strictEqual(done.status, "published", JSON.stringify(done.targets))
      const made = yield* simulated("x", accounts["x"]!)
      assert.strictEqual(made.filter((item) => item.text === content).length, 1)
    }))

  it.effect("x: a thread's reply is made but answered 503; the next try looks first, and the reply is there once", () =>
    Effect.gen(function*() {
      const { accounts, create, get } = yield* setup(["x"])
      const content = `1/ spoiled reply ${Date.now()}`
      // The second post sent is the thread's first reply.
      losses.push({ network: "x", call: /^POST \/2\/tweets$/, skip: 1, as: "503" })
      const post = yield* create({ content, xThread: [`${content} 2/`, `${content} 3/`], accountIds: [accounts["x"]], publishNow: true })
      const done = yield* settled(get, post.id)
      assert.deepStrictEqual(losses, [], "an armed call was never made")
      assert.strictEqual(done.status, "published", JSON.stringify(done.targets))
      const made = [...(yield* simulated("x", accounts["x"]!))].reverse()
      assert.deepStrictEqual(made.map((item) => item.text), [content, `${content} 2/`, `${content} 3/`])
    }))

  it.effect("mastodon: the status's answer is lost and the look after it fails in passing; the look is tried again, not given up", () =>
    Effect.gen(function*() {
      const { accounts, create, get } = yield* setup(["mastodon"])
      const content = `Lost status ${Date.now()}`
      // The status is made but its answer lost; the reconcile's read of the account's statuses then fails once.
      losses.push(
        { network: "mastodon", call: /^POST \/api\/v1\/statuses$/, skip: 0 },
        { network: "mastodon", call: /^GET \/api\/v1\/accounts\/[^/]+\/statuses/, skip: 0 }
      )
      const post = yield* create({ content, firstComment: `${content}, first comment`, accountIds: [accounts["mastodon"]], publishNow: true })
      const done = yield* settled(get, post.id)
      assert.deepStrictEqual(losses, [], "an armed call was never made")
      assert.strictEqual(done.status, "published", JSON.stringify(done.targets))
      const made = [...(yield* simulated("mastodon", accounts["mastodon"]!))].reverse()
      assert.deepStrictEqual(made.map((item) => item.text), [content, `${content}, first comment`])
    }))

  it.effect("mastodon: the first comment's answer is lost and four looks after it fail in passing; it is there once", () =>
    Effect.gen(function*() {
      const { accounts, create, get } = yield* setup(["mastodon"])
      const content = `Lost comment ${Date.now()}`
      losses.push(
        { network: "mastodon", call: /^POST \/api\/v1\/statuses$/, skip: 1 },
        ...Array.from({ length: 4 }, () => ({ network: "mastodon", call: /^GET \/api\/v1\/statuses\/[^/]+\/context/, skip: 0 }))
      )
      const post = yield* create({ content, firstComment: `${content}, first comment`, accountIds: [accounts["mastodon"]], publishNow: true })
      const done = yield* settled(get, post.id)
      assert.deepStrictEqual(losses, [], "an armed call was never made")
      assert.strictEqual(done.status, "published", JSON.stringify(done.targets))
      const made = [...(yield* simulated("mastodon", accounts["mastodon"]!))].reverse()
      assert.deepStrictEqual(made.map((item) => item.text), [content, `${content}, first comment`])
    }))
})

// Waits between tries long enough for the target row to be read while it waits (1 s, then 2 s).
const slowRetries = { ...fastTuning, publishing: { ...fastTuning.publishing, baseDelayMs: 1_000, maxDelayMs: 2_000 } }

layer(serverLayer({}, packages, undefined, slowRetries), { excludeTestServices: true })("an answer lost, then a look failing", (it) => {
  it.effect("facebook: the first comment's answer is lost and the look after it fails in passing; the row keeps looking first across the waits", () =>
    Effect.scoped(Effect.gen(function*() {
      const { accounts, create, get, key } = yield* setup(["facebook"])
      const sql = yield* SqlClient.SqlClient
      const content = `Lost comment ${Date.now()}`
      losses.push(
        { network: "facebook", call: /^POST \/v[\d.]+\/[^/]+\/comments$/, skip: 0 },
        { network: "facebook", call: /^GET \/v[\d.]+\/[^/]+\/comments/, skip: 0 }
      )
      // The look that would end the post (the second) waits until the row has been read after both
      // failures: however slow the test's reads, they see the target before it ends.
      const lastLook = Promise.withResolvers<void>()
      yield* Effect.addFinalizer(() => Effect.sync(() => lastLook.resolve()))
      holds.push(
        { network: "facebook", call: /^GET \/v[\d.]+\/[^/]+\/comments/, until: Promise.resolve() },
        { network: "facebook", call: /^GET \/v[\d.]+\/[^/]+\/comments/, until: lastLook.promise }
      )
      const post = yield* create({ content, firstComment: `${content}, first comment`, accountIds: [accounts["facebook"]], publishNow: true })
      // While waiting after each failure, the row says a step is under way, so a restart would look first too.
      const calls: Array<string | null> = []
      for (const failures of [1, 2]) {
        const row = yield* eventually(
          `failure ${failures} recorded`,
          Effect.map(
            Effect.orDie(sql<{ readonly call: string | null; readonly failedAttempts: number }>`
              SELECT call, failed_attempts FROM post_targets WHERE post_id = ${post.id}`),
            ([row]) => row!.failedAttempts >= failures && row!
          )
        )
        calls.push(row.call)
      }
      lastLook.resolve()
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
    })))
})
