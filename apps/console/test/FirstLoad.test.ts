import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { type ConsoleBrowser, type Herald, launchBrowser, missing, startHerald } from "./harness.ts"

// What a first visit costs: the JavaScript and CSS index.html loads (gzipped, as Herald serves them) and the
// time from asking for /app/sign-in to a form that can be filled in, on localhost, in a browser with nothing
// cached. Both printed for the
// record and held under a budget, so a heavy dependency or a slow start shows up as a failure.
const dist = join(import.meta.dirname, "..", "dist")
const budget = { gzippedBytes: 200_000, usableMs: 1_500 }
const owner = "owner@demo.example"

describe.skipIf(missing !== undefined)("the console's first load", () => {
  let herald: Herald
  let browser: ConsoleBrowser
  beforeAll(async () => {
    herald = await startHerald()
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await herald?.stop()
  })

  it("stays within its size and time budget", async () => {
    const index = readFileSync(join(dist, "index.html"), "utf8")
    const assets = [...index.matchAll(/(?:src|href)="\/app\/(assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]!)
    assert.isAtLeast(assets.length, 2, index)
    const gzipped = Object.fromEntries(assets.map((asset) => [asset, gzipSync(readFileSync(join(dist, asset))).length]))
    const total = Object.values(gzipped).reduce((sum, size) => sum + size, 0)

    // A first visit (nothing in the browser's cache) until the sign-in form takes input: once right after
    // Herald started (it compresses the build on first request), then again in a fresh browser context.
    const visit = async () => {
      const { context, page } = await browser.open(herald)
      const started = performance.now()
      await page.goto(herald.url("/app/sign-in"))
      await page.getByLabel("E-mail").fill(owner)
      const usable = Math.round(performance.now() - started)
      await context.close()
      return usable
    }
    const cold = await visit()
    const usable = await visit()

    console.log(
      `Console first load: ${(total / 1024).toFixed(1)} KiB gzipped (${JSON.stringify(gzipped)}); usable in ` +
        `${usable} ms on localhost (${cold} ms for the first visit after Herald started)`
    )
    assert.isBelow(total, budget.gzippedBytes)
    assert.isBelow(usable, budget.usableMs)
    assert.deepStrictEqual(browser.otherHosts(), [])
    assert.deepStrictEqual(browser.pageErrors(), [])
  })
})
