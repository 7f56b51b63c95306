import { assert, describe, it } from "@effect/vitest"
import { Context, Option } from "effect"

// Herald patches effect's `Context.merge` (patches/effect@4.1.0.patch, decision 0050 "Third round"): merging a
// few services into a large context lays them over it, as `Context.add` does, instead of copying the whole
// context into a new map. HttpApiBuilder merges each handler group's kept context into every request's,
// and the copy (with the flattening before it) was about a fifth of an authenticated GET's CPU.
// These tests hold the patch's meaning (the same services as a copy gives) and that it is in place.

const keys = Array.from({ length: 60 }, (_, i) => Context.Service<string>(`test/Service${i}`))
// As a server's context is: one map of many services.
const large = Context.makeUnsafe<string>(new Map(keys.map((key, i) => [key.key, `value ${i}`])))
const Extra = Context.Service<string>("test/Extra")
const Other = Context.Service<number>("test/Other")

describe("Context.merge", () => {
  it("gives every service of both, the second's winning where both have one", () => {
    const small = Context.make(Extra, "extra").pipe(Context.add(keys[3]!, "replaced"), Context.add(Other, 7))
    const merged = Context.merge(large, small)
    assert.strictEqual(Context.get(merged, Extra), "extra")
    assert.strictEqual(Context.get(merged, Other), 7)
    assert.strictEqual(Context.get(merged, keys[3]!), "replaced")
    assert.strictEqual(Context.get(merged, keys[59]!), "value 59")
    assert.strictEqual(merged.mapUnsafe.size, 62)
    // The merged context is a context like any other: flattened, added to, merged again.
    const again = Context.merge(Context.add(merged, Extra, "later"), Context.make(Other, 8))
    assert.deepStrictEqual([Context.get(again, Extra), Context.get(again, Other), Context.get(again, keys[0]!)], ["later", 8, "value 0"])
    // Neither side is changed.
    assert.isTrue(Option.isNone(Context.getOption(large, Extra)))
    assert.strictEqual(Context.get(large, keys[3]!), "value 3")
  })

  it("gives the same as a copy for a larger second context, and either side alone when the other is empty", () => {
    const many = keys.slice(0, 10).reduce((context, key, i) => Context.add(context, key, `other ${i}`), Context.make(Extra, "x"))
    const merged = Context.merge(large, many)
    assert.strictEqual(Context.get(merged, keys[9]!), "other 9")
    assert.strictEqual(Context.get(merged, keys[10]!), "value 10")
    assert.strictEqual(Context.merge(large, Context.empty()), large)
    assert.strictEqual(Context.merge(Context.empty(), many), many)
  })

  it("lays a few services over the large context without copying it (the patch is in place)", () => {
    const flat = Context.merge(large, Context.make(Extra, "flat"))
    const base = (flat as unknown as { readonly base: ReadonlyMap<string, unknown> }).base
    // Unpatched, the merge copies `large` into a fresh map of 61 services; patched, `large`'s own map of 60 is
    // kept underneath, the new service laid over it.
    assert.strictEqual(base, (large as unknown as { readonly base: ReadonlyMap<string, unknown> }).base)
    assert.strictEqual(base.size, 60)
  })
})
