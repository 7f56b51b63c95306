import { assert, describe, it } from "@effect/vitest"
import type { Page } from "playwright-core"
import { checkPage, type ConsoleBrowser, type Herald, missing, signInAsOwner, useConsole } from "./harness.ts"
import { skipIf } from "../../../testing/skipIf.ts"
import * as Permissions from "../../../packages/domain/src/Permissions.ts"

// Approvals in headless Chromium against a real Herald in the sandbox, in a workspace that requires them:
// an editor (invited, signed in in a second browser) submits posts through a key acting for them; the owner
// approves one with a note and sends another back with one, in place; the editor sees the note, and the
// API's refusal when trying to approve. The tests run in order and share both sessions.

describe("approvals", skipIf(missing), () => {
  let herald: Herald
  let browser: ConsoleBrowser
  let owner: Page
  let editor: Page
  let editorKey = ""
  let approved = ""
  let sentBack = ""
  let third = ""

  useConsole(async (run) => {
    ;({ herald, browser } = run)
    owner = await signInAsOwner(browser, herald)
    const workspace = await herald.api("PATCH", "/workspace", { approvalRequired: true })
    assert.strictEqual(workspace.status, 200, JSON.stringify(workspace.body))
    const invited = await herald.api("POST", "/members/invitations", { email: "kim@demo.example", role: "editor" })
    assert.strictEqual(invited.status, 200, JSON.stringify(invited.body))
    editor = (await browser.open(herald)).page
    await editor.goto(invited.body.data.url)
    await editor.getByLabel("Your name").fill("Kim")
    await editor.getByLabel("Choose a password").fill("kim's own long password")
    await editor.getByRole("button", { name: "Accept invitation" }).click()
    await editor.getByRole("heading", { name: "Accounts", level: 1 }).waitFor()
    const kim = (await herald.api("GET", "/members")).body.data.find((member: any) => member.email === "kim@demo.example")
    const key = await herald.api("POST", "/keys", { name: "Kim's scripts", memberId: kim.id })
    assert.strictEqual(key.status, 201, JSON.stringify(key.body))
    editorKey = key.body.data.key
  })

  const accessible = async (page: Page, name?: string) => {
    if (name !== undefined) await page.evaluate("window.scrollTo(0, 0)")
    assert.deepStrictEqual(await checkPage(page, name), [])
  }
  // Two networks that take a post of text alone.
  const textAccounts = async (): Promise<ReadonlyArray<any>> => {
    const accounts = (await herald.api("GET", "/accounts")).body.data
    return ["x", "mastodon"].map((platform) => accounts.find((account: any) => account.platform === platform))
  }
  const submitAsEditor = async (content: string, hours: number) => {
    const created = await herald.api("POST", "/posts", {
      content,
      accountIds: (await textAccounts()).map((account) => account.id),
      scheduledAt: new Date(Date.now() + hours * 60 * 60 * 1000).toISOString()
    }, editorKey)
    assert.strictEqual(created.status, 200, JSON.stringify(created.body))
    assert.strictEqual(created.body.data.status, "awaiting_approval")
    return created.body.data.id as string
  }
  const status = async (id: string) => (await herald.api("GET", `/posts/${id}`)).body.data.status
  const awaiting = (page: Page) => page.getByRole("list", { name: "Posts awaiting approval" }).getByRole("listitem").filter({ has: page.getByRole("heading") })
  const item = (page: Page, text: string) => awaiting(page).filter({ hasText: text })

  it("lists the editor's posts awaiting approval with their author, time and networks, and approves one with a note", async () => {
    approved = await submitAsEditor("Please approve me", 5)
    sentBack = await submitAsEditor("Needs another look", 6)
    third = await submitAsEditor("Still waiting", 7)
    await owner.getByRole("link", { name: "Approvals" }).click()
    await owner.getByRole("heading", { name: "Approvals", level: 1 }).waitFor()
    // Who decides is named from the permission table.
    await owner.getByText(`until ${Permissions.whoMay("approve")} approves them`).waitFor()
    await item(owner, "Please approve me").getByText("Submitted by kim@demo.example").waitFor()
    assert.strictEqual(await awaiting(owner).count(), 3)
    const accounts = await textAccounts()
    const first = await item(owner, "Please approve me").innerText()
    assert.include(first, `@${accounts[0].username}`)
    assert.include(first, `@${accounts[1].username}`)
    assert.include(first, "Awaiting approval")
    await accessible(owner)

    await item(owner, "Please approve me").getByLabel("Note for the author").fill("Lovely, thanks")
    await item(owner, "Please approve me").getByRole("button", { name: /^Approve the post for / }).click()
    await owner.getByRole("status").filter({ hasText: /^Approved the post for .*: it is scheduled\.$/ }).waitFor()
    await item(owner, "Please approve me").waitFor({ state: "detached" })
    assert.strictEqual(await status(approved), "scheduled")
    const events = (await herald.api("GET", `/posts/${approved}/events`)).body.data
    assert.strictEqual(events.find((event: any) => event.event === "post.approved").data.note, "Lovely, thanks")
  })

  it("sends a post back only with a note, saying so beside the field, then lists it with the note", async () => {
    const card = item(owner, "Needs another look")
    await card.getByRole("button", { name: /^Request changes to the post for / }).click()
    // The API asks for the note, and the page says so beside the field.
    await card.locator(".field-error").waitFor()
    assert.strictEqual(await status(sentBack), "awaiting_approval")
    await card.getByLabel("Note for the author").fill("Shorter, please")
    await card.getByRole("button", { name: /^Request changes to the post for / }).click()
    await owner.getByRole("status").filter({ hasText: /^Sent the post for .* back to its author with your note\.$/ }).waitFor()
    assert.strictEqual(await status(sentBack), "draft")
    const back = owner.getByRole("list", { name: "Posts sent back for changes" }).getByRole("listitem").filter({ hasText: "Needs another look" })
    await back.getByText("“Shorter, please”").waitFor()
    assert.include(await back.innerText(), "Sent back by you")
    await accessible(owner, "approvals")
  })

  it("shows the editor their post sent back with the note, and the API's refusal when they try to approve", async () => {
    await editor.goto(herald.url("/app/approvals"))
    await editor.getByRole("heading", { name: "Your posts sent back for changes" }).waitFor()
    const back = editor.getByRole("list", { name: "Posts sent back for changes" }).getByRole("listitem").filter({ hasText: "Needs another look" })
    await back.getByText("“Shorter, please”").waitFor()
    assert.include(await back.innerText(), "Sent back by owner@demo.example")
    await back.getByRole("link", { name: /^Edit/ }).waitFor()
    // Their own post still waiting says it is theirs.
    await item(editor, "Still waiting").getByText("Submitted by you").waitFor()

    await item(editor, "Still waiting").getByRole("button", { name: /^Approve the post for / }).click()
    await item(editor, "Still waiting").getByRole("alert").filter({ hasText: "approving needs an owner or admin" }).waitFor()
    assert.strictEqual(await status(third), "awaiting_approval")
    await accessible(editor)
  })

  it("follows what the session says the person may do, not their role's name (decision 0085)", async () => {
    // As if the API's permission table let editors review: the editor's page then lists every post sent
    // back, as a reviewer's does, though the session still names the role "editor".
    await editor.route("**/api/v1/auth/session", async (route) => {
      const response = await route.fetch()
      const body = await response.json()
      assert.strictEqual(body.data.workspace.role, "editor")
      body.data.workspace.permissions = [...body.data.workspace.permissions, "approve"]
      await route.fulfill({ response, json: body })
    })
    await editor.goto(herald.url("/app/approvals"))
    await editor.getByRole("heading", { name: "Sent back for changes", exact: true }).waitFor()
    assert.strictEqual(await editor.getByRole("heading", { name: "Your posts sent back for changes" }).count(), 0)
    await editor.unroute("**/api/v1/auth/session")
  })

  it("fits a phone: the approvals page without sideways scrolling, axe-clean", async () => {
    const { context, page: phone } = await browser.open(herald, { width: 375, height: 740 })
    await context.addCookies(await owner.context().cookies())
    await phone.goto(herald.url("/app/approvals"))
    await item(phone, "Still waiting").getByText("Submitted by kim@demo.example").waitFor()
    await phone.getByText("“Shorter, please”").waitFor()
    assert.isAtMost(Number(await phone.evaluate("document.documentElement.scrollWidth")), 375)
    assert.deepStrictEqual(await checkPage(phone), [])
    await context.close()
  })
})
