import { assert, describe, it } from "@effect/vitest"
import type { Page } from "playwright-core"
import { checkPage, type ConsoleBrowser, type Herald, missing, signInAsOwner, useConsole } from "./harness.ts"
import { skipIf } from "../../../testing/skipIf.ts"

// Accounts in the console, in headless Chromium against a real Herald in the sandbox: the Demo workspace's
// sandbox accounts, connecting one through the network's consent page and back, disconnecting it after
// confirmation, reconnecting one that needs it, and what the page says about a connect method it does not
// know. The tests run in order and share the signed-in Demo owner.

describe("accounts in the console", skipIf(missing), () => {
  let herald: Herald
  let browser: ConsoleBrowser
  let page: Page

  // No page may ask anything of another host (the network icons are drawn inline), nor throw.
  useConsole(async (run) => {
    ;({ herald, browser } = run)
    page = await signInAsOwner(browser, herald)
  })

  const accessible = async (name?: string) => assert.deepStrictEqual(await checkPage(page, name), [])
  const row = (username: string) => page.getByRole("row").filter({ hasText: `@${username}` })
  const listed = async () => (await herald.api("GET", "/accounts")).body.data as ReadonlyArray<any>

  it("lists the Demo workspace's sandbox accounts with their status", async () => {
    await page.goto(herald.url("/app/accounts"))
    await page.getByRole("heading", { name: "Accounts", level: 1 }).waitFor()
    assert.strictEqual(new URL(page.url()).pathname, "/app/accounts")
    await row("demo_x").waitFor()
    for (const account of await listed()) {
      const shown = row(account.username)
      assert.include(await shown.innerText(), "Connected", account.username)
      // Its network's icon: the adapter's mark as a data: URL, nothing fetched.
      assert.strictEqual(await shown.locator(".network-icon").count(), 1)
      assert.match(await shown.locator(".network-icon").first().getAttribute("src") ?? "data: (a drawn generic mark)", /^data:/)
    }
    // A connect control per network the server offers, from GET /api/v1/networks.
    const networks = (await herald.api("GET", "/networks")).body.data as ReadonlyArray<any>
    for (const network of networks) {
      await page.getByRole("form", { name: `Connect ${network.name}` }).getByRole("button", { name: `Connect ${network.name}` }).waitFor()
    }
    await accessible("accounts")
  })

  it("connects a sandbox account in one flow: consent page and back here, saying so", async () => {
    const form = page.getByRole("form", { name: "Connect X" })
    await form.getByLabel("Sandbox username").fill("console_alice")
    await form.getByRole("button", { name: "Connect X" }).click()
    await page.getByRole("status").filter({ hasText: "@console_alice on X is connected." }).waitFor()
    // Back on this page, its address cleaned of the outcome.
    await page.waitForURL((url) => url.pathname === "/app/accounts" && url.search === "")
    await row("console_alice").waitFor()
    assert.include(await row("console_alice").innerText(), "Connected")
    assert.deepInclude((await listed()).find((account) => account.username === "console_alice"), { platform: "x", status: "connected" })
  })

  it("signs in to a network that asks for fields (Bluesky's handle and app password) on the page, saying why not in its words", async () => {
    const form = page.getByRole("form", { name: "Connect Bluesky" })
    await form.getByLabel("Handle").fill("console_sky")
    await form.getByLabel("App password").fill("wrong")
    await form.getByRole("button", { name: "Connect Bluesky" }).click()
    await form.getByText("Bluesky did not accept that handle and app password").waitFor()
    assert.isUndefined((await listed()).find((account) => account.username.startsWith("console_sky")))
    await form.getByLabel("App password").fill("sandbox-app-password")
    await form.getByRole("button", { name: "Connect Bluesky" }).click()
    await row("console_sky").first().waitFor()
    assert.deepInclude((await listed()).find((account) => account.username.startsWith("console_sky")), { platform: "bluesky", status: "connected" })
    // No password stays on the page once it is used.
    assert.strictEqual(await form.getByLabel("App password").inputValue(), "")
  })

  it("disconnects an account only after confirmation", async () => {
    await page.getByRole("button", { name: "Disconnect @console_alice on X" }).click()
    const dialog = page.getByRole("dialog", { name: "Disconnect @console_alice on X?" })
    await dialog.waitFor()
    await accessible()
    await dialog.getByRole("button", { name: "Cancel" }).click()
    await dialog.waitFor({ state: "hidden" })
    assert.isDefined((await listed()).find((account) => account.username === "console_alice"))

    await page.getByRole("button", { name: "Disconnect @console_alice on X" }).click()
    await dialog.getByRole("button", { name: "Disconnect account" }).click()
    await page.getByRole("status").filter({ hasText: "@console_alice on X is disconnected." }).waitFor()
    await row("console_alice").waitFor({ state: "detached" })
    assert.isUndefined((await listed()).find((account) => account.username === "console_alice"))
  })

  it("shows why an account needs reconnecting and reconnects it through the same flow, keeping its id", async () => {
    const account = (await listed()).find((entry) => entry.username === "demo_linkedin")
    const reason = "The network refused the token renewal: the grant was revoked"
    // The list as the API answers once a renewal has failed for good (TokenRefresh sets it): only for this load.
    await page.route("**/api/v1/accounts", async (route) => {
      const response = await route.fetch()
      const body = await response.json()
      body.data = body.data.map((entry: any) =>
        entry.id === account.id ? { ...entry, status: "needs_reconnect", statusReason: reason } : entry
      )
      await route.fulfill({ response, json: body })
    }, { times: 1 })
    await page.goto(herald.url("/app/accounts"))
    const shown = row("demo_linkedin")
    await shown.getByText("Needs reconnecting").waitFor()
    assert.include(await shown.innerText(), reason)
    await accessible()

    await page.getByRole("button", { name: "Reconnect @demo_linkedin on LinkedIn" }).click()
    await page.getByRole("status").filter({ hasText: "@demo_linkedin on LinkedIn is connected." }).waitFor()
    assert.include(await row("demo_linkedin").innerText(), "Connected")
    assert.deepStrictEqual((await listed()).filter((entry) => entry.username === "demo_linkedin").map((entry) => entry.id), [account.id])
  })

  it("says in the network's words why a connection it started failed, and in its own words for a link from elsewhere", async () => {
    // The person declines on X's consent page: the network sends the browser back to the callback with its
    // error and the flow's state, and the callback back here.
    await page.route((url) => url.pathname.startsWith("/sandbox/x/") && url.searchParams.has("state"), async (route) => {
      const consent = new URL(route.request().url())
      const callback = new URL(consent.searchParams.get("redirect_uri")!)
      callback.search = new URLSearchParams({
        error: "access_denied",
        error_description: "The person declined",
        state: consent.searchParams.get("state")!
      }).toString()
      await route.fulfill({ status: 302, headers: { location: callback.toString() } })
    }, { times: 1 })
    await page.goto(herald.url("/app/accounts"))
    await page.getByRole("form", { name: "Connect X" }).getByRole("button", { name: "Connect X" }).click()
    const alert = page.getByRole("alert").filter({ hasText: "Not connected" })
    await alert.waitFor()
    assert.include(await alert.innerText(), "The network said: The person declined")
    await page.waitForURL((url) => url.pathname === "/app/accounts" && url.search === "")

    // Anyone can link here with words of their own: the page does not repeat them.
    const forged = "Your account is locked: call +1 555 0100"
    await page.goto(herald.url(`/app/accounts?${new URLSearchParams({ error: forged })}`))
    await alert.waitFor()
    assert.include(await alert.innerText(), "The connection could not be completed")
    assert.notInclude(await page.innerText("body"), forged)
    await page.waitForURL((url) => url.search === "")
  })

  it("names a connect method it does not know instead of guessing, and draws an unknown network's icon", async () => {
    // A network of a later adapter package, with a sign-in method this console does not know and no mark of
    // its own, as the API would describe it.
    await page.route("**/api/v1/networks", async (route) => {
      const response = await route.fetch()
      const body = await response.json()
      const later = {
        ...body.data[0],
        key: "elsewhere",
        name: "Elsewhere",
        icon: null,
        connect: { method: "instance", fields: [{ name: "instance", label: "Server address", required: true, secret: false }] }
      }
      await route.fulfill({ response, json: { data: [...body.data, later] } })
    })
    await page.goto(herald.url("/app/accounts"))
    const card = page.getByRole("form", { name: "Connect Elsewhere" })
    await card.waitFor()
    assert.include(await card.innerText(), "This console cannot connect Elsewhere accounts yet")
    assert.include(await card.innerText(), "“instance”")
    assert.strictEqual(await card.getByRole("button").count(), 0)
    assert.strictEqual(await card.locator("svg.network-icon").count(), 1)
    // The rest of the page works as before.
    await page.getByRole("form", { name: "Connect X" }).getByRole("button", { name: "Connect X" }).waitFor()
    await page.unroute("**/api/v1/networks")
  })

  it("fits a phone: nothing wider than the screen but the accounts table, which scrolls on its own", async () => {
    const phone = (await browser.open(herald, { width: 375, height: 740 })).page
    await phone.context().addCookies(await page.context().cookies())
    await phone.goto(herald.url("/app/accounts"))
    await phone.getByRole("form", { name: "Connect X" }).waitFor()
    const overflow = await phone.evaluate(() => {
      const page = globalThis as any
      return page.document.documentElement.scrollWidth - page.innerWidth
    })
    assert.isAtMost(overflow, 0)
    assert.deepStrictEqual(await checkPage(phone), [])
    await phone.context().close()
  })

  it("refuses to start a connection that would come back anywhere but the console", async () => {
    const answer = await herald.api("POST", "/accounts/connect/x", { returnTo: "//evil.example/app/" })
    assert.strictEqual(answer.status, 400)
    assert.strictEqual(answer.body.error.code, "invalid")
  })
})
