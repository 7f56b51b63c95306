import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { Networks } from "@herald/core"
import * as Packages from "../src/Packages.ts"
import { baseUrl, bearer, request, serverLayer, workspaceWithKey } from "./harness.ts"

// `GET /api/v1/networks` publishes each network's own post options as its adapter declares them, so a client
// renders their form from data: where they sit in a request, the JSON Schema of their fields, their defaults.

const networks = Effect.gen(function*() {
  const base = yield* baseUrl
  const { key } = yield* workspaceWithKey()
  const answer = yield* request(`${base}/api/v1/networks`, { headers: bearer(key.key) })
  assert.strictEqual(answer.status, 200, answer.text)
  return new Map<string, any>(answer.body.data.map((network: any) => [network.key, network]))
})

layer(serverLayer({}, Packages.all), { excludeTestServices: true })("networks' post options", (it) => {
  it.effect("every installed network's options appear with every field described; a network without any has null", () =>
    Effect.gen(function*() {
      const published = yield* networks
      const installed = (yield* Networks.Networks).all
      assert.strictEqual(published.size, installed.length)
      assert.isAbove(installed.filter((adapter) => adapter.options === undefined).length, 0)
      for (const adapter of installed) {
        const options = published.get(adapter.network).options
        if (adapter.options === undefined) {
          assert.isNull(options, adapter.network)
          continue
        }
        assert.strictEqual(options.placement, adapter.options.placement, adapter.network)
        assert.strictEqual(options.schema.type, "object")
        assert.deepStrictEqual(Object.keys(options.schema.properties), Object.keys(adapter.options.fields), adapter.network)
        assert.deepStrictEqual(options.defaults, adapter.options.defaults)
        for (const [name, property] of Object.entries<any>(options.schema.properties)) {
          assert.isString(property.description, `${adapter.network}.${name}`)
          assert.deepStrictEqual(property.default, options.defaults[name], `${adapter.network}.${name}`)
        }
      }
    }))

  it.effect("a platformOptions network's fields carry their types, enums, array items and defaults", () =>
    Effect.gen(function*() {
      const { options } = (yield* networks).get("mastodon")
      assert.strictEqual(options.placement, "platformOptions")
      const { language, sensitive, thread, visibility } = options.schema.properties
      assert.deepStrictEqual(visibility.enum, ["public", "unlisted", "private", "direct"])
      assert.strictEqual(visibility.default, "public")
      assert.strictEqual(sensitive.type, "boolean")
      assert.strictEqual(sensitive.default, false)
      assert.strictEqual(thread.type, "array")
      // Each follow-up and the thread itself carry their size caps (decision 0058).
      assert.deepStrictEqual(thread.items, { type: "string", maxLength: 100_000 })
      assert.strictEqual(thread.maxItems, 100)
      assert.deepStrictEqual(thread.default, [])
      assert.isNull(language.default)
      assert.deepStrictEqual(options.mediaFields, [])
    }))

  it.effect("top-level fields: a nested object with its enum, and a media field named as one", () =>
    Effect.gen(function*() {
      const published = yield* networks
      const tiktok = published.get("tiktok").options
      assert.strictEqual(tiktok.placement, "top")
      assert.strictEqual(tiktok.schema.properties.tiktok.type, "object")
      assert.include(tiktok.schema.properties.tiktok.properties.privacy.enum, "SELF_ONLY")
      assert.deepStrictEqual(tiktok.schema.properties.tiktok.default, {})
      const youtube = published.get("youtube").options
      assert.deepStrictEqual(youtube.mediaFields, ["youtubeThumbnail"])
      assert.strictEqual(published.get("x").options.schema.properties.xThread.items.type, "string")
    }))
})
