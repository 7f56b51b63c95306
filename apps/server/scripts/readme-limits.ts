// Rewrites the limits section of every adapter README from the adapter's limits data.
//   pnpm docs:limits
import { LimitsTable } from "@herald/adapter-kit"
import { readFileSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { sources } from "../src/internal/readmeLimits.ts"

const root = resolve(import.meta.dirname, "../../..")
for (const { folder, limits, api, source, rules } of sources) {
  const path = join(root, folder, "README.md")
  const before = readFileSync(path, "utf8")
  const after = LimitsTable.rewrite(before, limits, api, source, rules)
  if (after !== before) writeFileSync(path, after)
  console.log(`${after === before ? "unchanged" : "updated  "} ${path}`)
}
