import { assert, describe, it } from "@effect/vitest"
import type { Page } from "playwright-core"
import { checkPage, type Herald, missing, signInAsOwner, useConsole } from "./harness.ts"
import { skipIf } from "../../../testing/skipIf.ts"

// Settings > Workspace's "Assistants' posts need approval" (decision 0048) as the Demo owner uses it: on by
// default, turned off and on again through the form, with the API as the judge of what was saved.

describe("the workspace's approval of assistants' posts", skipIf(missing), () => {
  let herald: Herald
  let page: Page

  useConsole(async (run) => {
    herald = run.herald
    page = await signInAsOwner(run.browser, herald)
  })

  it("is on by default, and the owner turns it off and on in Settings > Workspace", async () => {
    await page.goto(herald.url("/app/settings/workspace"))
    await page.getByRole("heading", { name: "Workspace", level: 1 }).waitFor()
    const setting = page.getByLabel("Assistants' posts need approval")
    assert.isTrue(await setting.isChecked())
    assert.include(await page.locator("main").innerText(), "API keys are not affected")

    await setting.uncheck()
    await page.getByRole("button", { name: "Save settings" }).click()
    await page.getByText("Settings saved.").waitFor()
    assert.isFalse((await herald.api("GET", "/workspace")).body.data.assistantApproval)
    await page.reload()
    await page.getByRole("heading", { name: "Workspace", level: 1 }).waitFor()
    assert.isFalse(await page.getByLabel("Assistants' posts need approval").isChecked())
    assert.deepStrictEqual(await checkPage(page), [])
    await page.setViewportSize({ width: 375, height: 740 })
    assert.deepStrictEqual(await checkPage(page), [])

    await page.getByLabel("Assistants' posts need approval").check()
    await page.getByRole("button", { name: "Save settings" }).click()
    await page.getByText("Settings saved.").waitFor()
    assert.isTrue((await herald.api("GET", "/workspace")).body.data.assistantApproval)
  })
})
