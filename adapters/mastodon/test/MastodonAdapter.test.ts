import { assert } from "@effect/vitest"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { Effect } from "effect"
import { MastodonAdapter, MastodonSimulator } from "../src/index.ts"

AdapterSuite.suite("mastodon", {
  makeAdapter: MastodonAdapter.make,
  makeSimulator: MastodonSimulator.simulator,
  extra: (it, context) => {
    it.effect("links the status at /@<username>/<id> and its page shows it", () =>
      Effect.gen(function*() {
        const ctx = yield* context
        const { account } = yield* AdapterSuite.connect(ctx, "link_author")
        const published = yield* AdapterSuite.publishToEnd(ctx.adapter, { account, post: AdapterSuite.post({ text: `link ${Date.now()}` }) })
        assert.match(published.id, /^\d+$/)
        assert.strictEqual(published.url, `${ctx.baseUrl}/sandbox/mastodon/@link_author/${published.id}`)
        const page = yield* Effect.promise(() => fetch(published.url).then((response) => response.text()))
        assert.include(page, "link ")
      }))
  }
})
