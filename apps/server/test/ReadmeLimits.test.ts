import { assert, describe, it } from "@effect/vitest"
import { LimitsTable } from "@herald/adapter-kit"
import { readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { sources } from "../src/internal/readmeLimits.ts"

// A README whose limits table no longer matches the adapter's data fails here: run `pnpm docs:limits`.
describe("adapter README limits", () => {
  const root = resolve(import.meta.dirname, "../../..")
  for (const { folder, limits, api, source } of sources) {
    it(`${folder}/README.md matches ${source}`, () => {
      const readme = readFileSync(join(root, folder, "README.md"), "utf8")
      assert.include(readme, "<!-- limits:start -->")
      assert.strictEqual(LimitsTable.rewrite(readme, limits, api, source), readme)
    })
  }
})
