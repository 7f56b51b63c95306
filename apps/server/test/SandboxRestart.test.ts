import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { backends } from "@herald/db/testing"
import * as Main from "../src/Main.ts"
import * as Packages from "../src/Packages.ts"
import { bearer, fastTuning, freePort, quiet, request, settings } from "./harness.ts"
import { settled, setup } from "./publishing.ts"

// The sandbox networks keep their state in the database: a server stopped and started again on the same
// database (on the same address, or as another process on another one) still honours the tokens the
// simulators issued, Facebook's Page tokens included, and still shows the posts they accepted.

const platforms = ["x", "threads", "linkedin", "facebook", "instagram", "tiktok", "youtube"]

/** The posts a sandbox network shows the key's workspace over its control route, by URL. */
const networkPosts = (base: string, key: string, platform: string, username?: string) =>
  Effect.map(request(`${base}/sandbox/${platform}/_posts${username === undefined ? "" : `?username=${username}`}`, { headers: bearer(key) }), (answer) => {
    assert.strictEqual(answer.status, 200, answer.text)
    return (answer.body.data as ReadonlyArray<{ readonly url: string; readonly username: string | null }>)
  })

for (const backend of backends()) {
  describe(`sandbox state across a restart, on ${backend.name}`, () => {
    it.live("every network still shows its posts, and the Facebook account keeps publishing", () =>
      Effect.scoped(Effect.gen(function*() {
        const database = Layer.succeedContext(yield* Layer.build(backend.layer))
        const server = (port: number) =>
          Main.layerWith(settings({ port }), database, false, Packages.all, fastTuning).pipe(Layer.provide(quiet))
        const firstPort = yield* Effect.promise(freePort)

        const { accounts, before, key } = yield* Effect.scoped(Effect.gen(function*() {
          const { accounts, create, get, key, uploadVideo } = yield* setup(platforms)
          const before = yield* settled(get, (yield* create({
            content: "Before the restart",
            mediaIds: [yield* uploadVideo],
            youtubeTitle: "Before the restart",
            accountIds: platforms.map((platform) => accounts[platform]),
            publishNow: true
          })).id)
          return { accounts, before, key }
        }).pipe(Effect.provide(server(firstPort))))
        assert.strictEqual(before.status, "published", JSON.stringify(before.targets))

        // The same address again, and then another address (another process's): the same sandbox.
        for (const port of [firstPort, yield* Effect.promise(freePort)]) {
          yield* Effect.scoped(Effect.gen(function*() {
            const base = `http://127.0.0.1:${port}`
            for (const target of before.targets) {
              const shown = yield* networkPosts(base, key.key, target.platform)
              const found = shown.find((post) => post.url === target.url)
              assert.isDefined(found, `${target.platform} lost ${target.url}: ${JSON.stringify(shown)}`)
              // One account's posts, by its username.
              const own = yield* networkPosts(base, key.key, target.platform, found!.username!)
              assert.isTrue(own.some((post) => post.url === target.url) && own.every((post) => post.username === found!.username))
              assert.deepStrictEqual(yield* networkPosts(base, key.key, target.platform, "nobody_here"), [])
            }
            const send = (method: string, path: string, body?: unknown) =>
              request(`${base}/api/v1${path}`, {
                method,
                headers: { authorization: `Bearer ${key.key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
                ...(body === undefined ? {} : { body: JSON.stringify(body) })
              })
            const created = yield* send("POST", "/posts", { content: `After a restart, on port ${port}`, accountIds: [accounts["facebook"]], publishNow: true })
            assert.strictEqual(created.status, 200, created.text)
            const after = yield* settled((id) => Effect.map(send("GET", `/posts/${id}`), (answer) => answer.body.data), created.body.data.id)
            assert.strictEqual(after.status, "published", JSON.stringify(after.targets))
            const listed = yield* send("GET", "/accounts")
            const facebook = listed.body.data.find((account: { id: string }) => account.id === accounts["facebook"])
            assert.strictEqual(facebook.status, "connected")
            const shown = yield* networkPosts(base, key.key, "facebook")
            assert.isTrue(shown.some((post) => post.url === after.targets[0].url))
          }).pipe(Effect.provide(server(port))))
        }
      })))
  })
}
