import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { HttpClient, HttpClientError, UrlParams } from "effect/http"
import type { NetworkPackage } from "../src/NetworkPackages.ts"
import * as Packages from "../src/Packages.ts"
import { serverLayer } from "./harness.ts"
import { settled, setup, simulated } from "./publishing.ts"

// A network blip is not a crash: the network takes a call and acts on it, the connection drops before its
// answer reaches Herald, and Herald goes on in the same process. Through the whole server and its engine, the
// post ends published, once on the network, with each of its parts once.

/** The next call to lose: its network, `METHOD /path?query` under the network's root, and how many such calls go through first. */
let armed: { readonly network: string; readonly call: RegExp; skip: number } | undefined

/** The network's adapter, its HTTP client losing the answer of the armed call after the network answered it. */
const losing = (entry: NetworkPackage): NetworkPackage => ({
  ...entry,
  make: (config) =>
    Effect.updateService(entry.make(config), HttpClient.HttpClient, (client) =>
      HttpClient.transform(client, (response, request) =>
        Effect.flatMap(response, (answer) => {
          const query = UrlParams.toString(request.urlParams)
          const call = `${request.method} ${new URL(request.url).pathname.replace(/^\/sandbox\/[^/]+/, "")}${query === "" ? "" : `?${query}`}`
          if (armed === undefined || armed.network !== entry.network || !armed.call.test(call)) return Effect.succeed(answer)
          if (armed.skip-- > 0) return Effect.succeed(answer)
          armed = undefined
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

const packages = Packages.all.filter((entry) => entry.network === "threads" || entry.network === "mastodon").map(losing)

layer(serverLayer({}, packages), { timeout: 120_000, excludeTestServices: true })("an answer lost in transit", (it) => {
  it.effect("threads: the post's link read is lost; the post and its first comment are on Threads once, and linked", () =>
    Effect.gen(function*() {
      const { accounts, create, get } = yield* setup(["threads"])
      const content = `Lost link ${Date.now()}`
      // The post's link: `GET /v1.0/{media-id}?fields=id,permalink`, read once Threads has published the post.
      armed = { network: "threads", call: /^GET \/v1\.0\/\d+\?.*fields=id(,|%2C)permalink/, skip: 0 }
      const post = yield* create({ content, firstComment: `${content}, first comment`, accountIds: [accounts["threads"]], publishNow: true })
      const done = yield* settled(get, post.id)
      assert.isUndefined(armed, "the armed call was never made")
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
      armed = { network: "mastodon", call: /^POST \/api\/v1\/statuses$/, skip: 1 }
      const post = yield* create({
        content,
        firstComment: `${content}, first comment`,
        platformOptions: { mastodon: { thread: [`${content} 2/`, `${content} 3/`] } },
        accountIds: [accounts["mastodon"]],
        publishNow: true
      })
      const done = yield* settled(get, post.id)
      assert.isUndefined(armed, "the armed call was never made")
      assert.strictEqual(done.status, "published", JSON.stringify(done.targets))
      const made = [...(yield* simulated("mastodon", accounts["mastodon"]!))].reverse()
      assert.deepStrictEqual(
        made.map((item) => item.text),
        [content, `${content} 2/`, `${content} 3/`, `${content}, first comment`]
      )
      assert.strictEqual(done.targets[0].url, made[0]!.url)
    }))
})
