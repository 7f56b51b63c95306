import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import type { Page, Request } from "playwright-core"
import { checkPage, type Herald, missing, signInAsOwner, useConsole } from "./harness.ts"
import { skipIf } from "../../../testing/skipIf.ts"

// The composer in headless Chromium against a real Herald in the sandbox (the Demo workspace has one
// account per network): a post to three networks with an over-limit error that comes and goes as the text
// is typed, a per-network text, uploads with progress, alt text and order, scheduling in the workspace's
// zone, one post for a double click, the queue, and an edit that sends only what changed. The tests run in
// order and share the signed-in Demo owner.

const fixtures = resolve(import.meta.dirname, "../../server/test/fixtures")

describe("the composer", skipIf(missing), () => {
  let herald: Herald
  let page: Page
  let scheduledId = ""

  useConsole(async (run) => {
    herald = run.herald
    page = await signInAsOwner(run.browser, herald)
  })

  const accessible = async (name?: string) => assert.deepStrictEqual(await checkPage(page, name), [])
  const accountsOf = async () => (await herald.api("GET", "/accounts")).body.data as ReadonlyArray<any>
  const posts = async () => (await herald.api("GET", "/posts?limit=100")).body.data as ReadonlyArray<any>
  const text = () => page.getByRole("textbox", { name: "Text", exact: true })
  const textField = () => page.locator(".field", { has: text() })
  const attached = (name: string) => page.getByRole("list", { name: /^Attached media/ }).getByText(name, { exact: true })
  const counterOf = (name: string) => page.getByRole("tabpanel", { name: "All networks" }).locator(".counter", { hasText: name })
  const choose = async (username: string) => page.getByRole("checkbox", { name: new RegExp(`^@${username} on `) }).check()
  const newPost = async () => {
    await page.goto(herald.url("/app/posts/new"))
    await page.getByRole("heading", { name: "New post", level: 1 }).waitFor()
  }
  const openedPost = async () => {
    await page.waitForURL((url) => /^\/app\/posts\/[^/]+$/.test(url.pathname) && !url.pathname.endsWith("/new"))
    return new URL(page.url()).pathname.split("/").pop()!
  }

  it("shows a network's limit being passed while typing, and its error gone once the text is short enough", async () => {
    // Schedules are read in the workspace's zone, not the browser's (UTC here).
    assert.strictEqual((await herald.api("PATCH", "/workspace", { timeZone: "Europe/Paris" })).status, 200)
    await page.getByRole("link", { name: "New post" }).click()
    await page.getByRole("heading", { name: "New post", level: 1 }).waitFor()
    for (const username of ["demo_x", "demo_threads", "demo_instagram"]) await choose(username)
    // A tab per chosen network, beside the text for all. The empty text may already be marked as a problem
    // when the validation answers before the tabs are looked at, so either name is the tab.
    for (const name of ["All networks", "X", "Threads", "Instagram"]) {
      await page.getByRole("tab", { name: new RegExp(`^${name}(\\W+has problems)?$`) }).waitFor()
    }

    await text().fill("a".repeat(275))
    await counterOf("X").filter({ hasText: "275 / 280" }).waitFor()
    assert.strictEqual(await textField().locator(".field-error").count(), 0)
    // Typed key by key past X's 280: the API's problem appears beside the text, the others' counters stay under.
    await text().pressSequentially(" and more")
    await textField().locator(".field-error").filter({ hasText: "280" }).waitFor()
    assert.strictEqual(await text().getAttribute("aria-invalid"), "true")
    await page.getByRole("tab", { name: /^All networks\W+has problems$/ }).waitFor()
    await counterOf("X").and(page.locator(".counter-over")).waitFor()
    assert.strictEqual(await page.getByRole("tabpanel", { name: "All networks" }).locator(".counter-over").count(), 1)
    await page.getByRole("article", { name: "X preview" }).locator(".preview-over").waitFor()
    await accessible()

    for (let typed = 0; typed < 9; typed++) await text().press("Backspace")
    await textField().locator(".field-error").waitFor({ state: "detached" })
    assert.isNull(await text().getAttribute("aria-invalid"))
    await counterOf("X").filter({ hasText: "275 / 280" }).waitFor()
  })

  it("gives one network its own text, shown in that network's preview only", async () => {
    await text().fill("Launch day: Herald 2 is out.")
    await page.getByRole("tab", { name: "Threads", exact: true }).click()
    await page.getByRole("textbox", { name: "Text for Threads" }).fill("Launch day on Threads: Herald 2.")
    await page.getByRole("article", { name: "Threads preview" }).getByText("Launch day on Threads: Herald 2.").waitFor()
    await page.getByRole("article", { name: "X preview" }).getByText("Launch day: Herald 2 is out.").waitFor()
    // The tabs answer the arrow keys.
    await page.getByRole("tab", { name: "Threads", exact: true }).press("ArrowLeft")
    assert.strictEqual(await page.getByRole("tab", { name: "X", exact: true }).getAttribute("aria-selected"), "true")
    await page.getByRole("tab", { name: "All networks" }).click()
  })

  it("uploads a photo and a video with progress, shows what a network refuses of them, takes alt text and a new order", async () => {
    const picker = page.getByLabel("Add photos or videos")
    await picker.setInputFiles(join(fixtures, "photo.jpg"))
    await attached("Photo 1").waitFor()
    // A slow uplink, so the progress of a small file can be seen.
    const devtools = await page.context().newCDPSession(page)
    await devtools.send("Network.enable")
    await devtools.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 8_000 })
    await picker.setInputFiles(join(fixtures, "video-4s.mp4"))
    await page.getByRole("progressbar", { name: "Uploading video-4s.mp4" }).waitFor()
    await page.waitForFunction(() => {
      const bar = (globalThis as any).document.querySelector("progress[aria-label='Uploading video-4s.mp4']")
      return bar === null || bar.value > 0
    })
    await attached("Video 2").waitFor()
    await devtools.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
    assert.strictEqual(await page.getByRole("progressbar").count(), 0)

    // X takes photos or a video, not both: said beside the media, the other two take them.
    const mediaSection = page.getByRole("region", { name: "Photos and videos" })
    await mediaSection.locator(".field-error").filter({ hasText: "cannot be mixed" }).waitFor()
    assert.strictEqual((await mediaSection.locator(".field-error").allInnerTexts()).length, 1)
    await page.getByRole("checkbox", { name: "@demo_x on X" }).uncheck()
    await mediaSection.locator(".field-error").waitFor({ state: "detached" })

    await page.getByLabel("Alt text for photo 1").fill("The Herald 2 launch banner")
    await page.getByLabel("Alt text for photo 1").press("Tab")
    await page.getByText("Alt text saved").waitFor()

    // The video first, by keyboard; focus stays on the item that moved.
    await page.getByRole("button", { name: "Move video 2 earlier" }).focus()
    await page.keyboard.press("Enter")
    await attached("Video 1").waitFor()
    assert.strictEqual(await page.evaluate(() => (globalThis as any).document.activeElement?.textContent), "Move video 1 later")
    await page.getByRole("list", { name: "Instagram media" }).getByRole("img", { name: "The Herald 2 launch banner" }).waitFor()
    await accessible("composer")
    await page.setViewportSize({ width: 390, height: 844 })
    await accessible("composer-phone")
    await page.setViewportSize({ width: 1280, height: 800 })
  })

  it("schedules it in the workspace's time zone and opens the post, saved with every field", async () => {
    const tomorrow = new Date(Date.now() + 36 * 3600_000).toISOString().slice(0, 10)
    await page.getByLabel("Date and time (Europe/Paris)").fill(`${tomorrow}T09:30`)
    await page.getByRole("button", { name: "Schedule" }).click()
    scheduledId = await openedPost()

    const { status, body } = await herald.api("GET", `/posts/${scheduledId}`)
    assert.strictEqual(status, 200)
    const post = body.data
    const accounts = await accountsOf()
    const idOf = (username: string) => accounts.find((account) => account.username === username).id
    assert.strictEqual(post.status, "scheduled")
    assert.strictEqual(post.content, "Launch day: Herald 2 is out.")
    assert.deepStrictEqual(post.platformContent, { threads: "Launch day on Threads: Herald 2." })
    assert.sameMembers(post.targets.map((target: any) => target.accountId), ["demo_threads", "demo_instagram"].map(idOf))
    // 09:30 in Paris: UTC+1 in winter, UTC+2 in summer.
    const hour = new Date(post.scheduledAt).getUTCHours()
    assert.include([7, 8], hour)
    assert.strictEqual(post.scheduledAt.slice(0, 10), tomorrow)
    assert.strictEqual(new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Paris", hour: "2-digit", minute: "2-digit" }).format(new Date(post.scheduledAt)), "09:30")
    assert.deepStrictEqual(post.media.map((item: any) => item.kind), ["video", "image"])
    assert.strictEqual(post.media[1].alt, "The Herald 2 launch banner")
  })

  it("makes one post of a double click on Save draft, both requests carrying one Idempotency-Key", async () => {
    await newPost()
    await choose("demo_x")
    await text().fill("Saved once, however often it is clicked")
    const before = (await posts()).length
    const saves: Array<Request> = []
    const watch = (request: Request) => {
      if (request.method() === "POST" && new URL(request.url()).pathname === "/api/v1/posts") saves.push(request)
    }
    page.on("request", watch)
    // Two clicks in one task, before React can disable the button: only the key keeps them one post.
    await page.getByRole("button", { name: "Save draft" }).evaluate((button: any) => {
      button.click()
      button.click()
    })
    const id = await openedPost()
    page.off("request", watch)
    assert.strictEqual(saves.length, 2)
    const keys = await Promise.all(saves.map((request) => request.headerValue("idempotency-key")))
    assert.isNotNull(keys[0])
    assert.strictEqual(keys[0], keys[1])
    const after = await posts()
    assert.strictEqual(after.length, before + 1)
    assert.deepInclude(after.find((post) => post.id === id), { status: "draft", content: "Saved once, however often it is clicked" })
  })

  it("takes files dropped on the zone, listed in the order dropped whichever upload ends first", async () => {
    await newPost()
    await choose("demo_threads")
    const devtools = await page.context().newCDPSession(page)
    await devtools.send("Network.enable")
    await devtools.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 8_000 })
    // The large video first, then a tiny photo that finishes long before it.
    const files = [["video-4s.mp4", "video/mp4"], ["photo.png", "image/png"]].map(([name, type]) => ({
      name,
      type,
      base64: readFileSync(join(fixtures, name!)).toString("base64")
    }))
    await page.locator(".drop-zone").evaluate((zone: any, dropped) => {
      const { DataTransfer, DragEvent, File, Uint8Array, atob } = globalThis as any
      const transfer = new DataTransfer()
      for (const file of dropped) {
        transfer.items.add(new File([Uint8Array.from(atob(file.base64), (char: string) => char.charCodeAt(0))], file.name, { type: file.type }))
      }
      zone.dispatchEvent(new DragEvent("dragover", { dataTransfer: transfer, bubbles: true, cancelable: true }))
      zone.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true, cancelable: true }))
    }, files)
    await page.getByRole("progressbar", { name: "Uploading video-4s.mp4" }).waitFor()
    await attached("Photo 1").waitFor()
    await attached("Video 1").waitFor()
    await devtools.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 })
    assert.deepStrictEqual(await page.locator(".media-name").allInnerTexts(), ["Video 1", "Photo 2"])
  })

  it("adds a post to the queue: it takes the schedule's next free slot", async () => {
    const schedule = await herald.api("PUT", "/queue/schedule", {
      slots: ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map((day) => ({ day, time: "10:00" }))
    })
    assert.strictEqual(schedule.status, 200, JSON.stringify(schedule.body))
    await newPost()
    await choose("demo_mastodon")
    await text().fill("Whenever the queue says")
    // Mastodon's options, drawn from the schema its adapter publishes: an enum, and a thread of follow-ups.
    await page.getByRole("tab", { name: "Mastodon", exact: true }).click()
    await page.getByLabel("Visibility").selectOption("unlisted")
    await page.getByRole("button", { name: "Add to thread" }).click()
    await page.getByLabel("Thread 1").fill("And a follow-up")
    const preview = page.getByRole("article", { name: "Mastodon preview" })
    await preview.getByText("2/2").waitFor()
    await preview.getByText("And a follow-up").waitFor()
    await accessible()
    await page.getByRole("button", { name: "Add to queue" }).click()
    const id = await openedPost()
    const post = (await herald.api("GET", `/posts/${id}`)).body.data
    assert.deepInclude(post, { status: "scheduled", queued: true, content: "Whenever the queue says" })
    assert.deepInclude(post.platformOptions.mastodon, { visibility: "unlisted", thread: ["And a follow-up"] })
    assert.strictEqual(new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Paris", hour: "2-digit", minute: "2-digit" }).format(new Date(post.scheduledAt)), "10:00")
  })

  it("draws a nested option from its schema and shows the network's rule on it beside the field", async () => {
    await newPost()
    await choose("demo_tiktok")
    await text().fill("Behind the scenes")
    await page.getByRole("tab", { name: "TikTok", exact: true }).click()
    const group = page.getByRole("group", { name: "TikTok options" })
    await group.getByLabel("Privacy").selectOption("SELF_ONLY")
    await group.getByLabel("Branded content").check()
    // TikTok's own rule, from its adapter through the validate answer, under the nested field it is about.
    await group.locator(".field-error").first().waitFor()
    await page.getByRole("tab", { name: /^TikTok\W+has problems$/ }).waitFor()
    await accessible()
    await group.getByLabel("Privacy").selectOption("PUBLIC_TO_EVERYONE")
    await group.locator(".field-error").first().waitFor({ state: "detached" })
    await page.getByRole("tab", { name: "TikTok", exact: true }).waitFor()
  })

  it("edits a saved post, sending only what changed", async () => {
    await page.goto(herald.url(`/app/posts/${scheduledId}/edit`))
    await page.getByRole("heading", { name: "Edit post", level: 1 }).waitFor()
    assert.strictEqual(await text().inputValue(), "Launch day: Herald 2 is out.")
    await attached("Video 1").waitFor()
    const changes: Array<Request> = []
    const watch = (request: Request) => {
      if (request.method() === "PATCH" && new URL(request.url()).pathname === `/api/v1/posts/${scheduledId}`) changes.push(request)
    }
    page.on("request", watch)
    await text().fill("Launch day: Herald 2 is out today.")
    await page.getByRole("button", { name: "Save draft" }).click()
    await openedPost()
    page.off("request", watch)
    assert.strictEqual(changes.length, 1)
    // The text, and back to draft: the accounts, media and the other networks' texts are left alone.
    assert.deepStrictEqual(changes[0]!.postDataJSON(), { content: "Launch day: Herald 2 is out today.", draft: true })
    const post = (await herald.api("GET", `/posts/${scheduledId}`)).body.data
    assert.deepInclude(post, { status: "draft", content: "Launch day: Herald 2 is out today." })
    assert.deepStrictEqual(post.platformContent, { threads: "Launch day on Threads: Herald 2." })
    assert.strictEqual(post.media.length, 2)
  })
})
