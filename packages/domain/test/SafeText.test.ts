import { assert, describe, it } from "@effect/vitest"
import { Result, Schema } from "effect"
import { SafeText } from "../src/index.ts"

describe("SafeText", () => {
  it("finds NUL and unpaired surrogates, and nothing in ordinary text or emoji", () => {
    assert.isUndefined(SafeText.problem("Bonjour 👋 — ça va ?"))
    assert.include(SafeText.problem("a\u0000b"), "NUL")
    assert.include(SafeText.problem("a\uD83Db"), "U+D83D")
    assert.include(SafeText.problem("\uDC00"), "U+DC00")
    assert.include(SafeText.problem("👋\uD83D"), "position 2")
  })

  it("replaces NUL and unpaired surrogates with U+FFFD and keeps the rest", () => {
    assert.strictEqual(SafeText.sanitize("a\u0000b\uD83Dc👋"), "a\uFFFDb\uFFFDc👋")
    assert.isUndefined(SafeText.problem(SafeText.sanitize("\uDC00\u0000\uD800")))
  })

  it("is a Schema check that names the problem", () => {
    const decode = Schema.decodeUnknownResult(Schema.Struct({ name: SafeText.SafeString }))
    assert.isTrue(Result.isSuccess(decode({ name: "ok" })))
    const failed = decode({ name: "x\u0000" })
    assert.isTrue(Result.isFailure(failed))
    if (Result.isFailure(failed)) assert.include(failed.failure.message, "NUL")
  })

  it("finds the first bad string anywhere in a decoded value, keys included", () => {
    assert.isUndefined(SafeText.find({ a: ["x", { b: "y" }], c: 1, d: null }))
    const nested = SafeText.find({ targets: [{ text: "ok" }, { text: "bad\u0000" }] })
    assert.deepStrictEqual(nested?.path, ["targets", 1, "text"])
    const key = SafeText.find({ options: { "k\uD800": 1 } })
    assert.include(key?.problem, "field name")
    assert.deepStrictEqual(key?.path, ["options", "k\uFFFD"])
  })

  it("walks a value nested deeper than the call stack goes", () => {
    let deep: unknown = "\u0000"
    for (let level = 0; level < 200_000; level++) deep = [deep]
    assert.strictEqual(SafeText.find(deep)?.path.length, 200_000)
  })
})
