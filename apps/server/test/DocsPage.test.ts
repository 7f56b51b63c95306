// The docs page as a person sees it: loaded in headless Chromium, it reaches no host but the server, and its
// request samples send the key as the API takes it.
import { assert, describe, layer } from "@effect/vitest"
import { Effect } from "effect"
import type { Browser } from "playwright-core"
// Chromium with the console tests' options. The console's files share one browser, started by their project's
// global setup; this file, the server project's only page in a browser, launches its own for its one test,
// rather than every run of a server test starting one.
import { chromiumMissing as missing, launchChromium } from "../../console/test/chromium.ts"
import { baseUrl, serverLayer } from "./harness.ts"
import { patience } from "../../../vitest.shared.ts"
import { skipIf } from "../../../testing/skipIf.ts"

const withBrowser = <A>(use: (browser: Browser) => Promise<A>) =>
  Effect.acquireUseRelease(
    Effect.promise(launchChromium),
    (browser) => Effect.promise(() => use(browser)),
    (browser) => Effect.promise(() => browser.close())
  )

describe("the docs page", skipIf(missing), () => {
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
          await curl.waitFor({ timeout: patience / 3 })
          const sample = (await curl.textContent()) ?? ""
          // What the rendered page asks for (fonts, images), until it has asked nothing for half a second;
          // a request to another host that never ends is the fault the assertion names once the wait is over.
          await page.waitForLoadState("networkidle", { timeout: patience / 3 }).catch(() => undefined)
          await context.close()
          return { elsewhere, sample }
        })
        assert.deepStrictEqual(elsewhere, [])
        assert.match(sample, /Authorization: Bearer/)
        assert.notMatch(sample, /Basic/)
      }))
  })
})
