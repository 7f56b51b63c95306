import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import { backends } from "@herald/db/testing"
import * as SandboxStore from "../src/SandboxStore.ts"

// The sandbox's records in the database: any text a network was sent comes back as it was, and a process
// loading "what came after" sees each record's latest write once.

for (const backend of backends()) {
  describe(`SandboxStore on ${backend.name}`, () => {
    layer(backend.layer, { excludeTestServices: true })((it) => {
      it.effect("keeps any text, and a later load gets only what was written since", () =>
        Effect.gen(function*() {
          const store = yield* SandboxStore.make
          const odd = "NUL \u0000, a lone surrogate \ud800, an emoji 🎉 and a quote \""
          yield* store.save("x", "one", [
            { kind: "x:post", key: `k1 ${odd}`, json: JSON.stringify({ text: odd }) },
            { kind: "x:post", key: "k2", json: JSON.stringify({ text: "plain" }) }
          ])
          const all = yield* store.since("x", 0)
          assert.deepStrictEqual(all.map((record) => [record.key, record.json && JSON.parse(record.json).text]), [
            [`k1 ${odd}`, odd],
            ["k2", "plain"]
          ])
          assert.deepStrictEqual(yield* store.since("threads", 0), [])
          const seen = Math.max(...all.map((record) => record.version))
          yield* store.save("x", "two", [{ kind: "x:post", key: "k2", json: null }])
          const later = yield* store.since("x", seen)
          assert.deepStrictEqual(later.map((record) => [record.key, record.json, record.origin]), [["k2", null, "two"]])
        }))
    })
  })
}
