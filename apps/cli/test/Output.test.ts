import { assert, describe, it } from "@effect/vitest"
import { herald } from "./run.ts"

// With --json a script reads exactly one JSON document on stdout, also when the call itself is wrong.

// Each call a process of its own, on a folder of its own: they run at once.
describe.concurrent("herald --json with a call it cannot parse", () => {
  for (const [args, flag] of [
    [["workspace", "create", "--json", "--name"], "--name"],
    [["key", "create", "--json", "--workspace"], "--workspace"],
    [["key", "list", "--json"], "--workspace"]
  ] as const) {
    it(`herald ${args.join(" ")}: one error document naming ${flag}, exit 1`, async () => {
      const run = await herald(args)
      assert.strictEqual(run.code, 1, run.stderr)
      const document = JSON.parse(run.stdout)
      assert.deepStrictEqual(Object.keys(document), ["error"])
      assert.strictEqual(document.error.code, "invalid")
      assert.include(document.error.message, flag)
      assert.notInclude(run.stdout, "USAGE")
    })
  }

  it("without --json, the help and the error are for a person", async () => {
    const run = await herald(["workspace", "create", "--name"])
    assert.strictEqual(run.code, 1)
    assert.include(run.stdout, "USAGE")
    assert.include(run.stderr, "Missing value for flag --name")
  })
})
