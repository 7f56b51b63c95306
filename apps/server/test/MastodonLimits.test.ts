import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { MastodonAdapter, MastodonConfig, MastodonSimulator } from "@herald/adapter-mastodon"
import type { NetworkPackage } from "../src/NetworkPackages.ts"
import { baseUrl, bearer, request, serverLayer, workspaceWithKey } from "./harness.ts"
import { settled, setup, simulated } from "./publishing.ts"

// A network whose limits differ per server: a post to a Mastodon account is checked against its own
// instance's limits (`limitsFor`, read from /api/v2/instance), at creation and again when it goes out.

const mastodon: NetworkPackage = {
  network: "mastodon",
  make: MastodonAdapter.make,
  simulator: MastodonSimulator.simulator,
  realConfig: MastodonConfig.realConfig,
  offered: MastodonConfig.offered
}

layer(serverLayer({}, [mastodon]), { excludeTestServices: true })("Mastodon limits per instance", (it) => {
  it.effect("a post to an instance allowing 5,000 characters may have 5,000, and not one more", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      // The instance raises its limit before Herald first reads it (a caller of Herald's may change it).
      const { key } = yield* workspaceWithKey()
      const changed = yield* request(`${base}/sandbox/mastodon/_control/instance`, {
        method: "POST",
        headers: { ...bearer(key.key), "content-type": "application/json" },
        body: JSON.stringify({ maxCharacters: 5000 })
      })
      assert.strictEqual(changed.status, 200, changed.text)
      const { accounts, get, send } = yield* setup(["mastodon"])
      const long = "a".repeat(5000)
      const created = yield* send("POST", "/posts", { content: long, accountIds: [accounts["mastodon"]], publishNow: true })
      assert.strictEqual(created.status, 200, created.text)
      const done = yield* settled(get, created.body.data.id)
      assert.strictEqual(done.status, "published", JSON.stringify(done))
      assert.strictEqual((yield* simulated("mastodon", accounts["mastodon"]!))[0]?.text, long)

      const over = yield* send("POST", "/posts", { content: `${long}!`, accountIds: [accounts["mastodon"]], publishNow: true })
      assert.strictEqual(over.status, 400, over.text)
      assert.strictEqual(over.body.error.code, "invalid")
      assert.include(over.body.error.details[0].message, "5000")
    }))
})
