// The docs page as a person sees it: loaded in headless Chromium, it reaches no host but the server, and its
// request samples send the key as the API takes it.
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Browser } from "playwright-core"
// The console's tests launch Chromium the same way: one launcher for both.
import { chromiumMissing as missing, launchChromium } from "../../console/test/chromium.ts"
import { baseUrl, serverLayer } from "./harness.ts"

// A machine without Chromium skips these tests, saying so.
if (missing !== undefined) console.warn(`DocsPage.test.ts skipped: ${missing}: the docs page is not loaded in a browser`)

const withBrowser = <A>(use: (browser: Browser) => Promise<A>) =>
  Effect.acquireUseRelease(
    Effect.promise(launchChromium),
    (browser) => Effect.promise(() => use(browser)),
    (browser) => Effect.promise(() => browser.close())
  )

describe.skipIf(missing !== undefined)("the docs page", () => {
  layer(serverLayer())("in headless Chromium", (it) => {
    it.effect("reaches no other host, and its curl samples send Authorization: Bearer", () =>
      Effect.gen(function*() {
        const base = yield* baseUrl
        const server = new URL(base)
        // The page may be opened by either name of the server: its listening address or its public one.
        const own = new Set([server.host, `localhost:${server.port}`])
        const { elsewhere, sample } = yield* withBrowser(async (browser) => {
          const context = await browser.newContext()
          const page = await context.newPage()
          const elsewhere: Array<string> = []
          // Attempts, not successes: the machine may have no internet, and a page that tries is the fault.
          page.on("request", (request) => {
            const url = new URL(request.url())
            if ((url.protocol === "http:" || url.protocol === "https:") && !own.has(url.host)) elsewhere.push(request.url())
          })
          // Not "networkidle": a page waiting on another host that does not answer would never be idle.
          await page.goto(`${base}/docs#tag/posts/GET/api/v1/posts`, { waitUntil: "load" })
          const curl = page.locator("pre, code").filter({ hasText: /curl/ }).first()
          await curl.waitFor({ timeout: 30_000 })
          const sample = (await curl.textContent()) ?? ""
          // What the rendered page asks for (fonts, images) it asks for within moments of showing.
          await page.waitForTimeout(1_000)
          await context.close()
          return { elsewhere, sample }
        })
        assert.deepStrictEqual(elsewhere, [])
        assert.match(sample, /Authorization: Bearer/)
        assert.notMatch(sample, /Basic/)
      }), 120_000)
  })
})
