import { assert, describe, it } from "@effect/vitest"
import { LimitsTable } from "@herald/adapter-kit"
import { readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { sources } from "../src/internal/readmeLimits.ts"

// A README whose limits table no longer matches the adapter's data fails here: run `pnpm docs:limits`.
describe("adapter README limits", () => {
  const root = resolve(import.meta.dirname, "../../..")
  for (const { folder, limits, api, source, rules } of sources) {
    it(`${folder}/README.md matches ${source}`, () => {
      const readme = readFileSync(join(root, folder, "README.md"), "utf8")
      assert.include(readme, "<!-- limits:start -->")
      assert.strictEqual(LimitsTable.rewrite(readme, limits, api, source, rules), readme)
    })
  }

  // Every rule a simulator holds names where its network states it: an address, or a path into a
  // specification the network publishes.
  for (const { folder, rules } of sources) {
    if (rules === undefined) continue
    it(`${folder}: each rule of the simulator's table cites its source`, () => {
      assert.isAbove(rules.table.length, 0)
      for (const { call, rules: each } of rules.table) {
        assert.isAbove(each.length, 0, `${call} has no rules`)
        for (const rule of each) {
          assert.match(rule.source, /^https:\/\/\S+|#\/\S+/, `${call}: "${rule.rule}" cites no address`)
          assert.isAbove(rule.rule.length, 10, `${call}: a rule in words`)
        }
      }
    })
  }
})
