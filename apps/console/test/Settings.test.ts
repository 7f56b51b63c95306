import { assert, describe, it } from "@effect/vitest"
import type { Page } from "playwright-core"
import { checkPage, type ConsoleBrowser, type Herald, missing, ownerPassword as password, signInAsOwner, useConsole, withClipboard } from "./harness.ts"
import { skipIf } from "../../../testing/skipIf.ts"
import * as Permissions from "../../../packages/domain/src/Permissions.ts"

// Settings > API keys, Team and Workspace as the Demo owner uses them, in headless Chromium against a real
// Herald: a key made, seen once, copied, used and revoked; a member invited through the form and accepting
// in a second browser, their role changed, removed; the workspace's name, approvals, time zone and review
// profiles. The tests run in order and share the owner's session.

describe("the console's settings", skipIf(missing), () => {
  let herald: Herald
  let browser: ConsoleBrowser
  let page: Page

  // No page may ask anything of another host, nor throw.
  useConsole(async (run) => {
    ;({ herald, browser } = run)
    page = await signInAsOwner(browser, herald)
  })

  const accessible = async (target: Page, name?: string) => {
    // A full-page screenshot of a scrolled page would draw the sticky top bar mid-page.
    if (name !== undefined) await target.evaluate("window.scrollTo(0, 0)")
    assert.deepStrictEqual(await checkPage(target, name), [])
  }
  const accounts = (key: string) => fetch(herald.url("/api/v1/accounts"), { headers: { authorization: `Bearer ${key}` } })

  it("creates a key shown once with a copy button, which works until it is revoked", async () => {
    await page.goto(herald.url("/app/settings/api-keys"))
    await page.getByRole("heading", { name: "API keys", level: 1 }).waitFor()
    // The first run's Demo key is listed by its ends only.
    await page.getByRole("cell", { name: `hrld_…${herald.started.firstRun.key.key.slice(-4)}`, exact: true }).waitFor()
    await accessible(page)

    await page.getByRole("button", { name: "Create key" }).click()
    const form = page.getByRole("dialog", { name: "Create an API key" })
    await form.getByLabel("Name").fill("Publisher")
    // The picker offers the members with their roles, and a workspace key.
    assert.include(await form.getByLabel("Acts as").innerText(), "owner@demo.example: Owner")
    assert.include(await form.getByLabel("Acts as").innerText(), "Workspace key")
    await accessible(page)
    await form.getByRole("button", { name: "Create key" }).click()

    const shown = page.getByRole("dialog", { name: "Key created" })
    const key = await shown.getByLabel("Key").inputValue()
    assert.match(key, /^hrld_/)
    assert.include(await shown.innerText(), "only this once")
    const copied = await withClipboard(async () => {
      await shown.getByRole("button", { name: "Copy key" }).click()
      return page.evaluate("navigator.clipboard.readText()")
    })
    assert.strictEqual(copied, key)
    await accessible(page)
    assert.strictEqual((await accounts(key)).status, 200)

    await shown.getByRole("button", { name: "Done" }).click()
    await page.getByRole("cell", { name: `hrld_…${key.slice(-4)}`, exact: true }).waitFor()
    // Once closed, the key is nowhere on the page any more.
    assert.notInclude(await page.content(), key)

    await page.getByRole("button", { name: `Revoke key Publisher (hrld_…${key.slice(-4)})` }).click()
    const confirm = page.getByRole("dialog", { name: "Revoke this key?" })
    assert.include(await confirm.innerText(), "Publisher")
    await confirm.getByRole("button", { name: "Revoke key" }).click()
    await page.getByText(/^Revoked /).waitFor()
    assert.strictEqual((await accounts(key)).status, 401)
    await accessible(page, "settings-api-keys")
  })

  it("invites someone through the form, who accepts in a second browser; their role changes, then they are removed", async () => {
    await page.goto(herald.url("/app/settings/team"))
    await page.getByRole("heading", { name: "Team", level: 1 }).waitFor()
    await page.getByRole("cell", { name: "owner@demo.example You", exact: true }).waitFor()
    // Each role is offered with what the permission table lets it do, in the table's words.
    assert.deepStrictEqual(
      await page.getByLabel("Role", { exact: true }).locator("option").allTextContents(),
      Permissions.roles.toReversed().map((role) => `${role.charAt(0).toUpperCase()}${role.slice(1)}: ${Permissions.summary(role)}`)
    )
    await page.getByLabel("E-mail").fill("kim@demo.example")
    await page.getByLabel("Role", { exact: true }).selectOption("editor")
    await page.getByRole("button", { name: "Send invitation" }).click()
    const sent = page.getByRole("status").filter({ hasText: "kim@demo.example is invited as editor" })
    const link = (await sent.locator("code").innerText()).trim()
    assert.match(link, /\/app\/invitation#.+/)
    await sent.getByRole("button", { name: "Copy invitation link" }).waitFor()
    await page.getByRole("cell", { name: "kim@demo.example", exact: true }).waitFor()

    // A second invitation, withdrawn: its link stops working.
    await page.getByLabel("E-mail").fill("lee@demo.example")
    await page.getByRole("button", { name: "Send invitation" }).click()
    await page.getByRole("button", { name: "Withdraw the invitation of lee@demo.example" }).click()
    await page.getByRole("dialog", { name: "Withdraw this invitation?" }).getByRole("button", { name: "Withdraw invitation" }).click()
    await page.getByRole("button", { name: "Withdraw the invitation of lee@demo.example" }).waitFor({ state: "detached" })
    await accessible(page)

    const kim = await browser.open(herald)
    await kim.page.goto(link)
    await kim.page.getByLabel("Your name").fill("Kim")
    await kim.page.getByLabel("Choose a password").fill("kim's own long password")
    await kim.page.getByRole("button", { name: "Accept invitation" }).click()
    await kim.page.getByRole("heading", { name: "Accounts", level: 1 }).waitFor()
    // As an editor, Kim sees the team read-only and the keys not at all, in the API's words.
    await kim.page.goto(herald.url("/app/settings/api-keys"))
    await kim.page.getByText("API keys are managed by owners and admins").waitFor()
    await kim.page.goto(herald.url("/app/settings/team"))
    await kim.page.getByText("The team is managed by owners and admins").waitFor()
    assert.strictEqual(await kim.page.getByRole("button", { name: "Send invitation" }).count(), 0)
    await accessible(kim.page)
    await kim.context.close()

    await page.reload()
    await page.getByLabel("Role of kim@demo.example").selectOption("admin")
    await page.waitForFunction(async () => {
      const answer = await fetch("/api/v1/members")
      return JSON.stringify(await answer.json()).includes(`"email":"kim@demo.example","role":"admin"`)
    })
    await page.getByLabel("E-mail").fill("ana@demo.example")
    await page.getByLabel("Role", { exact: true }).selectOption("viewer")
    await page.getByRole("button", { name: "Send invitation" }).click()
    await page.getByRole("cell", { name: "ana@demo.example", exact: true }).waitFor()
    await accessible(page, "settings-team")
    // The API keeps an owner, and the page says so in its words.
    await page.getByLabel("Role of owner@demo.example").selectOption("viewer")
    await page.getByRole("alert").filter({ hasText: "only owner" }).waitFor()
    assert.strictEqual(await page.getByLabel("Role of owner@demo.example").inputValue(), "owner")

    await page.getByRole("button", { name: "Remove kim@demo.example" }).click()
    await page.getByRole("dialog", { name: "Remove this member?" }).getByRole("button", { name: "Remove member" }).click()
    await page.getByRole("button", { name: "Remove kim@demo.example" }).waitFor({ state: "detached" })
    const members = await herald.api("GET", "/members")
    assert.deepStrictEqual(members.body.data.map((member: any) => member.email), ["owner@demo.example"])
  })

  it("changes the workspace's name, approvals and time zone, and adds and deletes review profiles", async () => {
    await page.goto(herald.url("/app/settings/workspace"))
    await page.getByRole("heading", { name: "Workspace", level: 1 }).waitFor()
    assert.strictEqual(await page.getByLabel("Time zone", { exact: true }).inputValue(), "UTC")
    await page.getByLabel("Name", { exact: true }).fill("Demo Studio")
    await page.getByLabel("Approvals required").check()
    await page.getByLabel("Find a time zone").fill("paris")
    assert.strictEqual(await page.getByLabel("Time zone", { exact: true }).inputValue(), "Europe/Paris")
    await page.getByRole("button", { name: "Save settings" }).click()
    await page.getByText("Settings saved.").waitFor()
    const saved = (await herald.api("GET", "/workspace")).body.data
    assert.deepStrictEqual([saved.name, saved.approvalRequired, saved.timeZone], ["Demo Studio", true, "Europe/Paris"])
    // The top bar's workspace name follows.
    await page.getByRole("banner").getByText("Demo Studio").first().waitFor()

    await page.getByLabel("Reviewer's name").fill("Client A")
    await page.getByLabel("Reviewer's e-mail (optional)").fill("client@a.example")
    await page.getByRole("button", { name: "Add profile" }).click()
    await page.getByRole("cell", { name: "client@a.example", exact: true }).waitFor()
    await page.getByLabel("Reviewer's name").fill("Legal")
    await page.getByRole("button", { name: "Add profile" }).click()
    await page.getByRole("button", { name: "Delete review profile Legal" }).click()
    await page.getByRole("dialog", { name: "Delete this review profile?" }).getByRole("button", { name: "Delete profile" }).click()
    await page.getByRole("button", { name: "Delete review profile Legal" }).waitFor({ state: "detached" })
    const profiles = (await herald.api("GET", "/review-profiles")).body.data
    assert.deepStrictEqual(profiles.map((profile: any) => profile.name), ["Client A"])
    await accessible(page, "settings-workspace")

    // A name the API refuses shows its message beside the field, and nothing changes.
    await page.getByLabel("Name", { exact: true }).fill("")
    await page.getByRole("button", { name: "Save settings" }).click()
    await page.getByRole("alert").waitFor()
    assert.strictEqual((await herald.api("GET", "/workspace")).body.data.name, "Demo Studio")
    await accessible(page)
  })

  it("fits each settings page on a phone: tables scroll in their own box, the page never sideways", async () => {
    const { context, page: phone } = await browser.open(herald, { width: 375, height: 740 })
    // The owner's session, in a phone-sized window.
    await context.addCookies(await page.context().cookies())
    for (const [path, title, loaded] of [
      ["api-keys", "API keys", "Create key"],
      ["team", "Team", "Send invitation"],
      ["workspace", "Workspace", "Add profile"]
    ] as const) {
      await phone.goto(herald.url(`/app/settings/${path}`))
      await phone.getByRole("heading", { name: title, level: 1 }).waitFor()
      await phone.getByRole("button", { name: loaded }).waitFor()
      assert.isAtMost(Number(await phone.evaluate("document.documentElement.scrollWidth")), 375, path)
      await accessible(phone)
    }
    await context.close()
  })
})
