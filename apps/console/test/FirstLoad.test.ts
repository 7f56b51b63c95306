import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { missing } from "./harness.ts"
import { skipIf } from "../../../testing/skipIf.ts"

// What a first visit downloads: the JavaScript and CSS index.html loads, gzipped, held under a budget so a
// heavy dependency shows up as a failure. The time to a usable page is measured by `bench:console`, not here.
const dist = join(import.meta.dirname, "..", "dist")
const budget = { gzippedBytes: 200_000 }

describe("the console's first load", skipIf(missing), () => {
  it("stays within its size budget", () => {
    const index = readFileSync(join(dist, "index.html"), "utf8")
    const assets = [...index.matchAll(/(?:src|href)="\/app\/(assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]!)
    assert.isAtLeast(assets.length, 2, index)
    const gzipped = Object.fromEntries(assets.map((asset) => [asset, gzipSync(readFileSync(join(dist, asset))).length]))
    const total = Object.values(gzipped).reduce((sum, size) => sum + size, 0)
    console.log(`Console first load: ${(total / 1024).toFixed(1)} KiB gzipped (${JSON.stringify(gzipped)})`)
    assert.isBelow(total, budget.gzippedBytes)
  })
})
