import { assert, describe, it } from "@effect/vitest"
import { execFileSync } from "node:child_process"

/**
 * `@atproto/api` takes about 550 ms to import (1 s on a busy machine), so the adapter and its simulator import
 * it on their first use (`internal/atproto.ts`), never when the server loads them. Checked in a fresh Node
 * process, whose module resolution lists every package the adapter's modules bring in.
 */
describe("Bluesky's package loads without @atproto/api", () => {
  it("imports the adapter, the simulator and the limits without resolving any @atproto package", () => {
    const index = new URL("../src/index.ts", import.meta.url).href
    const script = [
      `import { registerHooks } from "node:module"`,
      `const seen = []`,
      `registerHooks({ resolve: (specifier, context, next) => { if (specifier.startsWith("@atproto/")) seen.push(specifier); return next(specifier, context) } })`,
      `const loaded = await import(${JSON.stringify(index)})`,
      `console.log(JSON.stringify({ exports: Object.keys(loaded).sort(), seen }))`
    ].join("\n")
    const output = execFileSync(process.execPath, ["--input-type=module", "--no-warnings", "-e", script], { encoding: "utf8", timeout: 60_000 })
    const { exports, seen } = JSON.parse(output) as { exports: Array<string>; seen: Array<string> }
    assert.includeMembers(exports, ["BlueskyAdapter", "BlueskyLimits", "BlueskySimulator"])
    assert.deepStrictEqual(seen, [])
  })
})
