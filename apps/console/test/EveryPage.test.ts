import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import type { Page } from "playwright-core"
import { checkPage, type Herald, missing, signInAsOwner, useConsole } from "./harness.ts"
import { skipIf } from "../../../testing/skipIf.ts"

// Every route the console has, signed in as the Demo owner and signed out: no serious or critical axe
// violation, no request to another host, no script error, and the first Tab lands on a control whose focus
// can be seen. The routes are read from src/router.tsx itself, so a page added there is checked here
// without touching this file (a new `$param` needs an example value below, and the test says so).

const routerSource = readFileSync(join(import.meta.dirname, "..", "src", "router.tsx"), "utf8")
// Every route's path, under the router's basepath /app (the console's routes are one level deep).
const paths = [...routerSource.matchAll(/\bpath: "([^"]+)"/g)].map((match) => match[1]!)

describe("every console page", skipIf(missing), () => {
  let herald: Herald
  let signedIn: Page
  let signedOut: Page
  // Example values for the routes' parameters.
  const examples: Record<string, string> = {}

  useConsole(async (run) => {
    herald = run.herald
    const created = await herald.api("POST", "/webhooks", { url: "http://127.0.0.1:9/every-page" })
    assert.isDefined(created.body?.data?.id, JSON.stringify(created.body))
    examples["$id"] = created.body.data.id
    signedIn = await signInAsOwner(run.browser, herald)
    signedOut = (await run.browser.open(herald)).page
  }, { env: { HERALD_WEBHOOK_ALLOW_PRIVATE: "true" } })

  it("finds the console's routes in its router", () => {
    // The pages the contract names, at least: a broken pattern here would check nothing.
    for (const path of ["sign-in", "accounts", "settings/api-keys", "settings/webhooks/$id", "settings/profile"]) {
      assert.include(paths, path)
    }
  })

  const address = (path: string) => {
    const filled = path.replace(/\$[A-Za-z]+/g, (parameter) => {
      const example = examples[parameter]
      if (example === undefined) throw new Error(`No example value for ${parameter} (route ${path}): add one in EveryPage.test.ts`)
      return example
    })
    return herald.url(`/app/${filled.replace(/^\//, "")}`)
  }

  // The page as a person meets it: loaded (a heading, no spinner), then Tab once.
  const check = async (page: Page, path: string) => {
    await page.goto(address(path))
    await page.locator("h1").first().waitFor()
    // Run in the page (the tests' own types have no DOM, hence `globalThis`).
    await page.waitForFunction(() => (globalThis as any).document.querySelector(".loading") === null)
    assert.deepStrictEqual(await checkPage(page), [], path)
    await page.locator("body").click({ position: { x: 1, y: 1 } }).catch(() => undefined)
    await page.keyboard.press("Tab")
    const focus = await page.evaluate(() => {
      const { document, getComputedStyle, innerHeight, innerWidth } = globalThis as any
      // A page with no control at all (a message with no way on) has no focus to see.
      const controls = document.querySelectorAll("a[href], button, input, select, textarea, [tabindex]:not([tabindex='-1'])")
      if (controls.length === 0) return { focused: true, what: "nothing", outline: true, ring: false, onScreen: true } as const
      const element = document.activeElement
      if (element === null || element === document.body) return { focused: false } as const
      const style = getComputedStyle(element)
      const box = element.getBoundingClientRect()
      return {
        focused: true,
        what: `${element.tagName.toLowerCase()} "${(element.textContent ?? "").trim().slice(0, 40)}"`,
        outline: style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0,
        ring: style.boxShadow !== "none",
        onScreen: box.width > 0 && box.height > 0 && box.bottom > 0 && box.right > 0 &&
          box.top < innerHeight && box.left < innerWidth
      } as const
    })
    assert.isTrue(focus.focused, `${path}: Tab focuses nothing`)
    if (focus.focused) {
      assert.isTrue(focus.outline || focus.ring, `${path}: no visible focus on ${focus.what}`)
      assert.isTrue(focus.onScreen, `${path}: the focused ${focus.what} is off screen`)
    }
  }

  it("passes every check on every route, signed in as the owner", async () => {
    for (const path of paths) await check(signedIn, path)
  })

  it("passes every check on every route, signed out (the sign-in pages, and sign-in for the rest)", async () => {
    for (const path of paths) await check(signedOut, path)
  })
})
