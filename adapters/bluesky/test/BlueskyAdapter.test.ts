import { assert } from "@effect/vitest"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { Effect } from "effect"
import { BlueskyAdapter, BlueskySimulator } from "../src/index.ts"

AdapterSuite.suite("bluesky", {
  makeAdapter: BlueskyAdapter.make,
  makeSimulator: BlueskySimulator.simulator,
  extra: (it, context) => {
    it.effect("links the post at /profile/<handle>/post/<rkey> and keeps its at:// URI as the id", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx, "link_author")
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, { account, post: AdapterSuite.post({ text: `link ${Date.now()}` }) })
        assert.match(published.id, /^at:\/\/\w+\/app\.bsky\.feed\.post\/\w+$/)
        const rkey = published.id.slice(published.id.lastIndexOf("/") + 1)
        assert.strictEqual(published.url, `${ctx.baseUrl}/sandbox/bluesky/profile/link_author/post/${rkey}`)
        const page = yield* Effect.promise(() => fetch(published.url).then((response) => response.text()))
        assert.include(page, "link ")
      }))
  }
})
