import { afterAll, assert, beforeAll, describe, it } from "@effect/vitest"
import { createHmac } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import type { Page } from "playwright-core"
import { checkPage, type Herald, missing, signInAsOwner, useConsole } from "./harness.ts"
import { skipIf } from "../../../testing/skipIf.ts"

// Settings > Webhooks in headless Chromium against a real Herald that may send to a local receiver
// (HERALD_WEBHOOK_ALLOW_PRIVATE=true) and switches an endpoint off after 2 failed events in a row, so the
// switch-off banner is reached in seconds. The tests run in order and share the endpoint.

interface Received {
  readonly body: string
  readonly signature: string
  readonly event: string
}

/** A node:http receiver that answers `status.current` and keeps what it received. */
const startReceiver = async () => {
  const status = { current: 500 }
  const received: Array<Received> = []
  const server: Server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      received.push({
        body: Buffer.concat(chunks).toString("utf8"),
        signature: String(request.headers["service-signature"] ?? ""),
        event: String(request.headers["service-event"] ?? "")
      })
      response.writeHead(status.current, { "content-type": "text/plain" })
      response.end(status.current === 200 ? "thanks" : "receiver is down")
    })
  })
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
  return { url, status, received, close: () => new Promise<void>((closed) => server.close(() => closed())) }
}

/** Whether a request's Service-Signature was made with this secret (docs/webhooks.md, "Verifying"). */
const signedWith = (request: Received, secret: string) => {
  const t = /t=(\d+)/.exec(request.signature)?.[1]
  const v1 = /v1=([0-9a-f]+)/.exec(request.signature)?.[1]
  return t !== undefined && v1 === createHmac("sha256", secret).update(`${t}.${request.body}`).digest("hex")
}

describe("Settings > Webhooks", skipIf(missing), () => {
  let herald: Herald
  let page: Page
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let endpointId = ""
  let secret = ""

  beforeAll(async () => {
    receiver = await startReceiver()
  })
  afterAll(async () => {
    await receiver?.close()
  })
  useConsole(async (run) => {
    herald = run.herald
    page = await signInAsOwner(run.browser, herald)
  }, { env: { HERALD_WEBHOOK_ALLOW_PRIVATE: "true", HERALD_WEBHOOK_DISABLE_AFTER: "2" } })

  const accessible = async (name?: string) => assert.deepStrictEqual(await checkPage(page, name), [])
  const history = () => page.getByRole("table", { name: "Delivery attempts" }).locator("tbody tr")

  it("adds an endpoint with events picked by kind, and shows its signing secret once with a copy button", async () => {
    await page.getByRole("link", { name: "Webhooks" }).click()
    await page.getByRole("heading", { name: "Webhooks" }).waitFor()
    await page.getByText("No webhook endpoints yet.").waitFor()

    await page.getByRole("button", { name: "Add endpoint" }).click()
    const dialog = page.getByRole("dialog")
    await dialog.getByLabel("URL").fill(receiver.url)
    await dialog.getByLabel("Only the events chosen below").check()
    // A whole kind at once, and one event of another.
    await dialog.getByLabel("Posts (post.*)").check()
    await dialog.getByLabel("webhook.test").check()
    await dialog.getByLabel("Description (optional)").fill("CI receiver")
    await dialog.getByRole("button", { name: "Add endpoint" }).click()

    await dialog.getByRole("heading", { name: "Endpoint added" }).waitFor()
    secret = await dialog.getByLabel("Signing secret").inputValue()
    assert.match(secret, /^whsec_[A-Za-z0-9_-]{43}$/)
    await dialog.getByRole("button", { name: "Copy signing secret" }).click()
    assert.strictEqual(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText()), secret)
    await dialog.getByRole("button", { name: "Done" }).click()
    await dialog.waitFor({ state: "detached" })

    // Saved as picked; the secret is gone from the page for good.
    const listed = await herald.api("GET", "/webhooks")
    assert.strictEqual(listed.body.data.length, 1)
    const endpoint = listed.body.data[0]
    endpointId = endpoint.id
    assert.strictEqual(endpoint.url, receiver.url)
    assert.strictEqual(endpoint.description, "CI receiver")
    assert.deepStrictEqual([...endpoint.events].sort(), [
      "post.approved", "post.changes_requested", "post.created", "post.deleted", "post.failed", "post.partial",
      "post.published", "post.rescheduled", "post.retried", "post.scheduled", "post.submitted", "post.updated",
      "webhook.test"
    ])
    const row = page.getByRole("table", { name: "Webhook endpoints" }).locator("tbody tr")
    await row.first().waitFor()
    const text = await row.first().innerText()
    assert.include(text, receiver.url)
    assert.include(text, "and 11 more")
    assert.include(text, "On")
    assert.include(text, "None yet")
    assert.notInclude(await page.content(), secret)
    await accessible("settings-webhooks")
  })

  it("sends a test event, shows the failing attempt, and redelivers it once the receiver answers", async () => {
    await page.getByRole("link", { name: receiver.url }).click()
    await page.getByRole("heading", { name: "CI receiver" }).waitFor()
    await page.getByText("No deliveries yet.").waitFor()

    await page.getByRole("button", { name: "Send test event" }).click()
    await page.getByText("Test event sent").waitFor()
    await history().first().waitFor()
    const failed = await history().first().innerText()
    assert.include(failed, "webhook.test")
    assert.include(failed, "500")
    assert.include(failed, "receiver is down")
    // What arrived is signed with the secret the console showed.
    assert.strictEqual(receiver.received.length, 1)
    assert.strictEqual(receiver.received[0]!.event, "webhook.test")
    assert.isTrue(signedWith(receiver.received[0]!, secret))

    receiver.status.current = 200
    await page.getByRole("button", { name: /^Redeliver webhook\.test/ }).first().click()
    await page.getByText("Redelivered").waitFor()
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll("table tbody tr").length >= 2)
    const newest = await history().first().innerText()
    assert.include(newest, "200")
    assert.include(newest, "thanks")
    assert.strictEqual(await history().count(), 2)
    assert.strictEqual(receiver.received.length, 2)
    // The same event, sent again.
    assert.strictEqual(JSON.parse(receiver.received[1]!.body).id, JSON.parse(receiver.received[0]!.body).id)
    // At the top, so the full-page screenshot has the sticky bar where it belongs.
    await page.evaluate(() => {
      const inPage = globalThis as any
      inPage.scrollTo(0, 0)
      for (const region of inPage.document.querySelectorAll(".table-scroll")) region.scrollLeft = 0
    })
    await accessible("settings-webhook")
  })

  it("changes the events to all, and rotates the secret behind a confirmation, showing the new one once", async () => {
    await page.getByLabel("All events, including ones Herald adds later").check()
    await page.getByRole("button", { name: "Save changes" }).click()
    await page.getByText("Changes saved.").waitFor()
    assert.deepStrictEqual((await herald.api("GET", `/webhooks/${endpointId}`)).body.data.events, [])

    await page.getByRole("button", { name: "Rotate secret" }).click()
    await page.getByRole("dialog").getByRole("button", { name: "Rotate secret" }).click()
    const shown = page.getByRole("dialog").getByLabel("Signing secret")
    await shown.waitFor()
    const rotated = await shown.inputValue()
    assert.match(rotated, /^whsec_/)
    assert.notStrictEqual(rotated, secret)
    await page.getByRole("dialog").getByRole("button", { name: "Done" }).click()
    await page.getByRole("dialog").waitFor({ state: "detached" })
    assert.notInclude(await page.content(), rotated)

    // The next request is signed with the new secret only.
    await page.getByRole("button", { name: "Send test event" }).click()
    await page.getByText("The endpoint answered").waitFor()
    const last = receiver.received.at(-1)!
    assert.isTrue(signedWith(last, rotated))
    assert.isFalse(signedWith(last, secret))
  })

  it("says why Herald switched the endpoint off after failures, and switching on resets the count", async () => {
    receiver.status.current = 500
    // Two failed test events in a row: HERALD_WEBHOOK_DISABLE_AFTER=2 switches it off.
    await page.getByRole("button", { name: "Send test event" }).click()
    await page.getByText("The attempt failed").waitFor()
    await page.getByRole("button", { name: "Send test event" }).click()
    const banner = page.getByRole("alert").filter({ hasText: "switched this endpoint off" })
    // With the last failed attempt from the history.
    await banner.filter({ hasText: "The last failed attempt: 500" }).waitFor()
    const words = await banner.innerText()
    assert.include(words, "after 2 failed events in a row")
    assert.include(words, "500")
    assert.include(words, "resets the failure count")
    assert.include(words, "kept events")
    assert.include(await page.locator("main").innerText(), "Switched off after failures")

    receiver.status.current = 200
    await banner.getByRole("button", { name: "Switch on" }).click()
    await banner.waitFor({ state: "detached" })
    const on = (await herald.api("GET", `/webhooks/${endpointId}`)).body.data
    assert.deepStrictEqual([on.enabled, on.failures, on.switchedOff], [true, 0, null])

    // Off by hand: said plainly, and on again.
    await page.getByRole("button", { name: "Switch off" }).click()
    await page.getByText("This endpoint is switched off").waitFor()
    assert.strictEqual((await herald.api("GET", `/webhooks/${endpointId}`)).body.data.switchedOff, "by_hand")
    await page.getByRole("button", { name: "Switch on" }).first().click()
    await page.getByRole("button", { name: "Switch off" }).waitFor()
  })

  it("pages through the history with Older and Newer", async () => {
    // 25 attempts on top of those so far (the last from the page, which shows the history again): the
    // newest 20 first, the rest on the next page.
    for (let index = 0; index < 24; index++) {
      const sent = await herald.api("POST", `/webhooks/${endpointId}/test`)
      assert.strictEqual(sent.status, 200, JSON.stringify(sent.body))
    }
    await page.getByRole("button", { name: "Send test event" }).click()
    await history().nth(19).waitFor()
    const total = (await herald.api("GET", `/webhooks/${endpointId}/deliveries?limit=100`)).body.data.length
    assert.isAbove(total, 25)
    assert.isBelow(total, 40)
    assert.strictEqual(await history().count(), 20)
    const newest = await history().first().innerText()
    assert.isTrue(await page.getByRole("button", { name: "Newer" }).isDisabled())
    await page.getByRole("button", { name: "Older" }).click()
    await history().nth(total - 21).waitFor()
    await history().nth(total - 20).waitFor({ state: "detached" })
    assert.isTrue(await page.getByRole("button", { name: "Older" }).isDisabled())
    await page.getByRole("button", { name: "Newer" }).click()
    await history().nth(19).waitFor()
    assert.strictEqual(await history().first().innerText(), newest)
  })

  it("fits a phone: both pages without sideways scrolling of the page (tables scroll on their own)", async () => {
    await page.setViewportSize({ width: 375, height: 740 })
    const overflow = () => page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth - (globalThis as any).innerWidth)
    await page.getByRole("button", { name: "Send test event" }).waitFor()
    assert.isAtMost(await overflow(), 0)
    await accessible()
    await page.goto(herald.url("/app/settings/webhooks"))
    await page.getByRole("table", { name: "Webhook endpoints" }).waitFor()
    assert.isAtMost(await overflow(), 0)
    await accessible()
  })
})

describe("Settings > Webhooks on a Herald that refuses private addresses", skipIf(missing), () => {
  let herald: Herald
  let page: Page

  useConsole(async (run) => {
    herald = run.herald
    page = await signInAsOwner(run.browser, herald)
  })

  it("offers the events the API lists, not a list of its own (decision 0085)", async () => {
    // As if the server knew one event more than this console was built with, and one fewer.
    await page.route("**/api/v1/webhooks/events", async (route) => {
      const response = await route.fetch()
      const body = await response.json()
      body.data = [...body.data.filter((event: string) => event !== "webhook.test"), "invoice.paid"]
      await route.fulfill({ response, json: body })
    })
    await page.goto(herald.url("/app/settings/webhooks"))
    await page.getByRole("button", { name: "Add endpoint" }).click()
    const dialog = page.getByRole("dialog")
    await dialog.getByLabel("Only the events chosen below").check()
    await dialog.getByLabel("invoice.paid", { exact: true }).waitFor()
    await dialog.getByLabel("invoice (invoice.*)", { exact: true }).waitFor()
    await dialog.getByLabel("post.published", { exact: true }).waitFor()
    assert.strictEqual(await dialog.getByLabel("webhook.test", { exact: true }).count(), 0)
    assert.strictEqual(await dialog.getByLabel("Webhooks (webhook.*)", { exact: true }).count(), 0)
    await page.unroute("**/api/v1/webhooks/events")
  })

  it("shows the API's words beside the URL, naming the development setting", async () => {
    await page.goto(herald.url("/app/settings/webhooks"))
    await page.getByRole("button", { name: "Add endpoint" }).click()
    const dialog = page.getByRole("dialog")
    await dialog.getByLabel("URL").fill("http://127.0.0.1:9/hook")
    await dialog.getByRole("button", { name: "Add endpoint" }).click()
    const error = dialog.locator(".field-error")
    await error.waitFor()
    assert.include(await error.innerText(), "HERALD_WEBHOOK_ALLOW_PRIVATE")
    assert.strictEqual((await herald.api("GET", "/webhooks")).body.data.length, 0)
  })
})
