import { assert, describe, it } from "@effect/vitest"
import type { Page } from "playwright-core"
import { checkPage, type ConsoleBrowser, type Herald, missing, ownerPassword as password, useConsole } from "./harness.ts"
import { skipIf } from "../../../testing/skipIf.ts"

// Signing in to the console as a person does, in headless Chromium against a real Herald: the first-run
// link, a password, signing out and in, sessions, an invitation, and a second workspace. The tests run in
// order and share the Demo owner's state.

const owner = "owner@demo.example"

describe("signing in to the console", skipIf(missing), () => {
  let herald: Herald
  let browser: ConsoleBrowser
  let page: Page

  // No page may ask anything of another host (fonts, icons, scripts all come from Herald), nor throw.
  useConsole(async (run) => {
    ;({ herald, browser } = run)
    page = (await browser.open(herald)).page
  })

  const accessible = async (target: Page, name?: string) => assert.deepStrictEqual(await checkPage(target, name), [])

  it("sends a visitor without a session to sign-in, and back to where they were going afterwards", async () => {
    await page.goto(herald.url("/app/settings/profile"))
    await page.getByRole("heading", { level: 1, name: "Sign in", exact: true }).waitFor()
    assert.include(new URL(page.url()).pathname, "/app/sign-in")
    assert.strictEqual(new URL(page.url()).searchParams.get("redirect"), "/settings/profile")
    await accessible(page, "sign-in")
  })

  it("signs the Demo owner in from the first-run link and asks for a password, which then works", async () => {
    assert.match(herald.consoleLink, /\/app\/link#.+/)
    await page.goto(herald.consoleLink)
    await page.getByRole("heading", { level: 1, name: "Set your password", exact: true }).waitFor()
    // The one-time token leaves the address bar and the history at once.
    assert.strictEqual(new URL(page.url()).hash, "")
    assert.include(await page.locator("main").innerText(), owner)
    await accessible(page, "set-password")

    // The API's own message about the password shows beside the field.
    await page.getByLabel("New password").fill(owner)
    await page.getByRole("button", { name: "Set password" }).click()
    await page.locator(".field-error").first().waitFor()
    assert.isNotEmpty((await page.locator(".field-error").first().innerText()).trim())

    await page.getByLabel("New password").fill(password)
    await page.getByRole("button", { name: "Set password" }).click()
    await page.getByRole("heading", { level: 1, name: "Accounts", exact: true }).waitFor()
    assert.include(page.url(), "/app/accounts")
    await accessible(page)

    // The same link a second time is refused in words.
    const again = (await browser.open(herald)).page
    await again.goto(herald.consoleLink)
    await again.getByRole("alert").waitFor()
    assert.include(await again.getByRole("alert").innerText(), "has been used or has expired")
    await again.context().close()
  })

  it("signs out from the person menu, refuses a wrong password in the API's words, and signs in with the right one", async () => {
    await page.getByRole("button", { name: /account menu/ }).click()
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.getByRole("heading", { level: 1, name: "Sign in", exact: true }).waitFor()
    // Signed out for real: the console's pages send the visitor back to sign-in.
    await page.goto(herald.url("/app/settings/api-keys"))
    await page.getByRole("heading", { level: 1, name: "Sign in", exact: true }).waitFor()

    await page.getByLabel("E-mail").fill(owner)
    await page.getByLabel("Password").fill("not the password at all")
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("alert").waitFor()
    assert.include(await page.getByRole("alert").innerText(), "Wrong e-mail or password")

    await page.getByLabel("Password").fill(password)
    await page.getByRole("button", { name: "Sign in" }).click()
    // Back where the visitor was going.
    await page.getByRole("heading", { level: 1, name: "API keys", exact: true }).waitFor()
    assert.include(page.url(), "/app/settings/api-keys")
  })

  it("lists the person's sessions with this one marked, and signs another one out", async () => {
    const other = await browser.open(herald)
    await other.page.goto(herald.url("/app/sign-in"))
    await other.page.getByLabel("E-mail").fill(owner)
    await other.page.getByLabel("Password").fill(password)
    await other.page.getByRole("button", { name: "Sign in" }).click()
    await other.page.getByRole("heading", { level: 1, name: "Accounts", exact: true }).waitFor()

    await page.goto(herald.url("/app/settings/profile"))
    await page.getByRole("heading", { level: 1, name: "Profile", exact: true }).waitFor()
    const rows = page.getByRole("table", { name: "Your sessions" }).locator("tbody tr")
    await rows.nth(1).waitFor()
    assert.strictEqual(await rows.count(), 2)
    assert.strictEqual(await page.getByText("This browser").count(), 1)
    await accessible(page, "profile")

    await page.getByRole("button", { name: /^Sign out .*signed in/ }).click()
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll("tbody tr").length === 1)

    // The other browser is signed out on its next request.
    await other.page.goto(herald.url("/app/settings/team"))
    await other.page.getByRole("heading", { level: 1, name: "Sign in", exact: true }).waitFor()
    await other.context.close()
  })

  it("changes the name shown in the top bar", async () => {
    await page.getByRole("textbox", { name: "Name", exact: true }).fill("Dana Demo")
    await page.getByRole("button", { name: "Save name" }).click()
    await page.getByRole("button", { name: /Dana Demo/ }).waitFor()
  })

  it("says what to do about a forgotten password when Herald sends no e-mail", async () => {
    const visitor = await browser.open(herald)
    await visitor.page.goto(herald.url("/app/sign-in"))
    await visitor.page.getByRole("link", { name: "Forgot password?" }).click()
    await visitor.page.getByRole("heading", { level: 1, name: "Reset your password", exact: true }).waitFor()
    await accessible(visitor.page, "reset")
    await visitor.page.getByLabel("E-mail").fill(owner)
    await visitor.page.getByRole("button", { name: "Send reset link" }).click()
    await visitor.page.getByText("This Herald sends no e-mail").waitFor()
    assert.include(await visitor.page.locator("main").innerText(), "./herald member login-link")
    await visitor.context.close()
  })

  it("says an invitation address without its token is incomplete, and offers the way to sign in", async () => {
    const visitor = await browser.open(herald)
    await visitor.page.goto(herald.url("/app/invitation"))
    await visitor.page.getByText("This address has no invitation in it").waitFor()
    await visitor.page.getByRole("link", { name: "Sign in" }).click()
    await visitor.page.getByRole("heading", { level: 1, name: "Sign in", exact: true }).waitFor()
    await visitor.context.close()
  })

  it("lets an invited new person set a name and password and land in the workspace", async () => {
    const invited = await herald.api("POST", "/members/invitations", { email: "sam@demo.example", role: "editor" })
    assert.strictEqual(invited.status, 200, JSON.stringify(invited.body))
    const visitor = await browser.open(herald)
    await visitor.page.goto(invited.body.data.url)
    await visitor.page.getByRole("heading", { level: 1, name: "Join Demo", exact: true }).waitFor()
    assert.strictEqual(new URL(visitor.page.url()).hash, "")
    assert.include(await visitor.page.locator("main").innerText(), "sam@demo.example")
    await accessible(visitor.page, "invitation")

    await visitor.page.getByLabel("Your name").fill("Sam")
    await visitor.page.getByLabel("Choose a password").fill("another good long password")
    await visitor.page.getByRole("button", { name: "Accept invitation" }).click()
    await visitor.page.getByRole("heading", { level: 1, name: "Accounts", exact: true }).waitFor()
    assert.include(await visitor.page.getByRole("banner").innerText(), "Demo")
    await visitor.page.getByRole("button", { name: /Sam/ }).waitFor()
    await visitor.context.close()

    const members = await herald.api("GET", "/members")
    assert.isTrue(members.body.data.some((member: any) => member.email === "sam@demo.example" && member.role === "editor"))
  })

  it("switches between the person's workspaces", async () => {
    const created = await herald.cli("workspace", "create", "--name", "Acme", "--owner-email", owner, "--json")
    assert.strictEqual(created.code, 0, created.stderr)
    // /app/ opens the calendar.
    await page.goto(herald.url("/app/"))
    await page.getByRole("heading", { level: 1, name: "Calendar", exact: true }).waitFor()
    assert.strictEqual(new URL(page.url()).pathname, "/app/calendar")
    await page.goto(herald.url("/app/accounts"))
    await page.getByRole("heading", { level: 1, name: "Accounts", exact: true }).waitFor()
    const switcher = page.getByLabel("Workspace")
    await switcher.waitFor()
    assert.strictEqual(await switcher.locator("option:checked").innerText(), "Demo")
    await switcher.selectOption({ label: "Acme" })
    await page.waitForFunction(() => (globalThis as any).document.querySelector("#workspace-switcher:not([disabled])") !== null)
    // The server agrees: the session's current workspace is Acme, after a reload too.
    await page.reload()
    await page.getByLabel("Workspace").waitFor()
    assert.strictEqual(await page.getByLabel("Workspace").locator("option:checked").innerText(), "Acme")
  })

  it("lets a person who already has an account accept an invitation to another workspace with their password", async () => {
    const listed = await herald.cli("workspace", "list", "--json")
    const acme = (listed.json as Array<any>).find((workspace) => workspace.name === "Acme")
    assert.isDefined(acme, listed.stdout)
    const key = await herald.cli("key", "create", "--workspace", acme.id, "--name", "invitations", "--json")
    assert.strictEqual(key.code, 0, key.stderr)
    const invited = await herald.api("POST", "/members/invitations", { email: "sam@demo.example", role: "viewer" }, key.json.key)
    assert.strictEqual(invited.status, 200, JSON.stringify(invited.body))

    const visitor = await browser.open(herald)
    await visitor.page.goto(invited.body.data.url)
    await visitor.page.getByRole("heading", { level: 1, name: "Join Acme", exact: true }).waitFor()
    await visitor.page.getByText("You already have a Herald account").waitFor()
    await visitor.page.getByLabel("Password").fill("not Sam's password")
    await visitor.page.getByRole("button", { name: "Accept invitation" }).click()
    await visitor.page.getByRole("alert").waitFor()
    await visitor.page.getByLabel("Password").fill("another good long password")
    await visitor.page.getByRole("button", { name: "Accept invitation" }).click()
    await visitor.page.getByRole("heading", { level: 1, name: "Accounts", exact: true }).waitFor()
    // Sam is now in both workspaces, looking at Acme.
    const switcher = visitor.page.getByLabel("Workspace")
    assert.strictEqual(await switcher.locator("option:checked").innerText(), "Acme")
    assert.deepStrictEqual((await switcher.locator("option").allInnerTexts()).sort(), ["Acme", "Demo"])
    await visitor.context.close()
  })

  it("asks a person who has an account without a password to sign in by their link first, and offers no password field", async () => {
    const made = await herald.cli("workspace", "create", "--name", "Linked", "--owner-email", "lin@demo.example", "--json")
    assert.strictEqual(made.code, 0, made.stderr)
    // Lin signs in only by the operator's link (no password yet): the link makes their sign-in.
    const link = await herald.cli("member", "login-link", "--workspace", made.json.id, "--email", "lin@demo.example", "--json")
    assert.strictEqual(link.code, 0, link.stderr)
    const invited = await herald.api("POST", "/members/invitations", { email: "lin@demo.example", role: "viewer" })
    assert.strictEqual(invited.status, 200, JSON.stringify(invited.body))

    const visitor = await browser.open(herald)
    await visitor.page.goto(invited.body.data.url)
    await visitor.page.getByRole("heading", { level: 1, name: "Join Demo", exact: true }).waitFor()
    await visitor.page.getByText("without a password: sign in with the link you were given").waitFor()
    assert.strictEqual(await visitor.page.getByLabel("Password").count(), 0)
    assert.strictEqual(await visitor.page.getByRole("button", { name: "Accept invitation" }).count(), 0)
    await accessible(visitor.page, "invitation-without-password")
    await visitor.context.close()
  })

  it("folds the navigation behind a menu button on a phone", async () => {
    const phone = await browser.open(herald, { width: 375, height: 740 })
    await phone.page.goto(herald.url("/app/sign-in"))
    await phone.page.getByLabel("E-mail").fill(owner)
    await phone.page.getByLabel("Password").fill(password)
    await phone.page.getByRole("button", { name: "Sign in" }).click()
    await phone.page.getByRole("heading", { level: 1, name: "Accounts", exact: true }).waitFor()
    const navigation = phone.page.getByRole("navigation", { name: "Main" })
    assert.isFalse(await navigation.isVisible())
    await phone.page.getByRole("button", { name: "Menu", exact: true }).click()
    await navigation.getByRole("link", { name: "Team" }).waitFor()
    await accessible(phone.page, "phone-navigation")
    await navigation.getByRole("link", { name: "Team" }).click()
    await phone.page.getByRole("heading", { level: 1, name: "Team", exact: true }).waitFor()
    assert.isFalse(await navigation.isVisible())
    await phone.context.close()
  })
})
