import { assert, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { BlueskyAdapter, BlueskyConfig, BlueskySimulator } from "@herald/adapter-bluesky"
import type { NetworkPackage } from "../src/NetworkPackages.ts"
import { baseUrl, bearer, fastTuning, request, serverLayer, workspaceWithKey } from "./harness.ts"
import { commentsReceived } from "./inbox.ts"
import { settled, simulated } from "./publishing.ts"

// Bluesky through the whole server in the sandbox: connected over the API with a handle and an app password,
// a post with an emoji, a link and a mention published with its facets, a reply read as a comment, and the
// mention read as a comment of the account it names.

const bluesky: NetworkPackage = {
  network: "bluesky",
  make: BlueskyAdapter.make,
  simulator: BlueskySimulator.simulator,
  realConfig: BlueskyConfig.realConfig,
  offered: BlueskyConfig.offered
}

layer(serverLayer({}, [bluesky], undefined, { ...fastTuning, inboxPollEvery: Duration.zero }), { excludeTestServices: true })("Bluesky on the server", (it) => {
  it.effect("connects with an app password, publishes with facets, and reads a reply into the inbox", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key, workspace } = yield* workspaceWithKey()
      const send = (method: string, path: string, body?: unknown) =>
        request(`${base}/api/v1${path}`, {
          method,
          headers: { ...bearer(key.key), ...(body === undefined ? {} : { "content-type": "application/json" }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })

      const networks = yield* send("GET", "/networks")
      const entry = networks.body.data.find((network: { key: string }) => network.key === "bluesky")
      assert.strictEqual(entry.connect.method, "credentials")

      const wrong = yield* send("POST", "/accounts/connect", { platform: "bluesky", fields: { identifier: "srv.test", password: "wrong" } })
      assert.strictEqual(wrong.status, 400, wrong.text)
      assert.include(wrong.body.error.message, "app password")
      const friend = yield* send("POST", "/accounts/connect", { platform: "bluesky", fields: { identifier: "friend.srv.test", password: "a" } })
      assert.strictEqual(friend.status, 201, friend.text)
      const connected = yield* send("POST", "/accounts/connect", { platform: "bluesky", fields: { identifier: "srv.test", password: "b" } })
      assert.strictEqual(connected.status, 201, connected.text)
      const account = connected.body.data
      assert.deepInclude(account, { platform: "bluesky", username: "srv.test", status: "connected" })

      const content = "Ça marche 🎉 with @friend.srv.test: https://example.com"
      const created = yield* send("POST", "/posts", { content, accountIds: [account.id], publishNow: true })
      assert.strictEqual(created.status, 200, created.text)
      const get = (id: string) => Effect.map(send("GET", `/posts/${id}`), (answer) => answer.body.data)
      const post = yield* settled(get, created.body.data.id)
      assert.strictEqual(post.status, "published", JSON.stringify(post))
      const [stored] = yield* simulated("bluesky", account.id)
      const facets = (stored!.details["record"] as { facets: ReadonlyArray<{ index: { byteStart: number } }> }).facets
      // "Ça marche 🎉 with " is 18 UTF-16 units and 21 bytes; the link starts 18 bytes after the mention.
      assert.deepStrictEqual(facets.map((facet) => facet.index.byteStart), [21, 39])
      const page = yield* Effect.promise(() => fetch(stored!.url).then((answer) => answer.text()))
      assert.include(page, "Ça marche")

      const control = yield* request(`${base}/sandbox/bluesky/_control/comments`, {
        method: "POST",
        headers: { ...bearer(key.key), "content-type": "application/json" },
        body: JSON.stringify({ username: "srv.test", author: "reader.test", text: "Congrats!" })
      })
      assert.strictEqual(control.status, 201, control.text)
      // The reply to srv.test, and the post's mention of friend.srv.test, connected in the same workspace.
      const comments = yield* commentsReceived(workspace.id, 2)
      assert.lengthOf(comments, 2)
      assert.deepInclude(comments.find((comment) => comment.accountId === account.id), { platform: "bluesky", text: "Congrats!" })
      assert.deepInclude(comments.find((comment) => comment.accountId === friend.body.data.id), { platform: "bluesky", text: content })
    }))
})
