import { assert, describe, it } from "@effect/vitest"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import type { Page } from "playwright-core"
import { checkPage, type ConsoleBrowser, type Herald, missing, signInAsOwner, useConsole, withClipboard } from "./harness.ts"
import { skipIf } from "../../../testing/skipIf.ts"

// The post page in headless Chromium against a real Herald in the sandbox: a post going out while the page
// is open turns published with its link without a reload; a refused target shows its error in words and is
// retried from the page; duplicate and delete; the history; a client review link made and copied. The tests
// run in order and share the signed-in Demo owner.

const fixtures = join(import.meta.dirname, "..", "..", "server", "test", "fixtures")

describe("the post page", skipIf(missing), () => {
  let herald: Herald
  let browser: ConsoleBrowser
  let page: Page
  let accounts: ReadonlyArray<any> = []

  useConsole(async (run) => {
    ;({ herald, browser } = run)
    page = await signInAsOwner(browser, herald)
    accounts = (await herald.api("GET", "/accounts")).body.data
  })

  const accessible = async (name?: string) => {
    // A full-page screenshot of a scrolled page would draw the sticky top bar mid-page.
    if (name !== undefined) await page.evaluate("window.scrollTo(0, 0)")
    assert.deepStrictEqual(await checkPage(page, name), [])
  }
  const account = (platform: string) => {
    const found = accounts.find((entry) => entry.platform === platform)
    assert.isDefined(found, `a Demo ${platform} account`)
    return found
  }
  const create = async (body: Record<string, unknown>) => {
    const created = await herald.api("POST", "/posts", body)
    assert.strictEqual(created.status, 200, JSON.stringify(created.body))
    return created.body.data
  }
  const read = async (id: string) => (await herald.api("GET", `/posts/${id}`)).body.data
  const open = async (id: string) => {
    await page.goto(herald.url(`/app/posts/${id}`))
    await page.getByRole("heading", { name: "Post", level: 1 }).waitFor()
  }
  const summary = () => page.locator(".page-description")
  const history = () => page.getByRole("list", { name: "Events, oldest first" }).locator("li")
  const inFuture = (ms: number) => new Date(Date.now() + ms).toISOString()

  it("shows a scheduled post that goes out while the page is open turn published, with its link, without a reload", async () => {
    const post = await create({
      content: "From the console's post page",
      accountIds: [account("x").id, account("mastodon").id],
      scheduledAt: inFuture(60 * 60 * 1000)
    })
    await open(post.id)
    await summary().getByText("Scheduled").waitFor()
    const targets = page.getByRole("table", { name: "Where it goes" }).locator("tbody tr")
    assert.strictEqual(await targets.count(), 2)
    assert.include(await targets.first().innerText(), `@${account("x").username}`)
    assert.include(await targets.first().innerText(), "Waiting")
    // A mark that a reload would wipe.
    await page.evaluate("window.stillTheSamePage = true")

    // Moved to a moment from now through the API: the page follows on its own.
    const moved = await herald.api("PATCH", `/posts/${post.id}`, { scheduledAt: inFuture(1_500) })
    assert.strictEqual(moved.status, 200, JSON.stringify(moved.body))
    await summary().getByText("Published").waitFor()
    const out = await read(post.id)
    assert.strictEqual(out.status, "published")
    for (const target of out.targets) {
      const link = page.getByRole("link", { name: new RegExp(`^Open on .* \\(@${target.username},`) })
      assert.strictEqual(await link.getAttribute("href"), target.url)
    }
    assert.isTrue(await page.evaluate("window.stillTheSamePage === true"))

    // Its history, oldest first.
    await history().filter({ hasText: "Published on every network" }).waitFor()
    const said = await history().allInnerTexts()
    assert.match(said[0]!, /Scheduled for/)
    assert.match(said[1]!, /Moved to/)
    assert.match(said.at(-1)!, /Published on every network/)
    await accessible()
  })

  it("shows a refused target's error in words and retries it from the page until it is published", async () => {
    const post = await create({
      content: `Refused once #sandbox-fail-once ${Date.now()}`,
      accountIds: [account("x").id],
      publishNow: true
    })
    await open(post.id)
    await summary().getByText("Failed").waitFor()
    const error = page.locator(".target-error")
    assert.include(await error.innerText(), "sandbox")
    assert.strictEqual(await error.innerText(), (await read(post.id)).targets[0].error)
    await accessible()

    await page.getByRole("button", { name: "Retry failed targets" }).click()
    await summary().getByText("Published").waitFor()
    await page.getByRole("link", { name: /^Open on / }).waitFor()
    await history().filter({ hasText: "Failed targets sent again" }).waitFor()
    assert.strictEqual((await read(post.id)).status, "published")
  })

  it("follows a flaky network's passing fault through to published", async () => {
    const post = await create({
      content: `Wobbly #sandbox-flaky ${Date.now()}`,
      accountIds: [account("x").id],
      scheduledAt: inFuture(60 * 60 * 1000)
    })
    await open(post.id)
    await summary().getByText("Scheduled").waitFor()
    await herald.api("PATCH", `/posts/${post.id}`, { scheduledAt: inFuture(1_000) })
    await summary().getByText("Published").waitFor()
    await page.getByRole("link", { name: /^Open on / }).waitFor()
  })

  it("duplicates a post as a new draft with the same content, accounts, media, texts and options, then deletes it", async () => {
    const uploaded = await fetch(herald.url("/api/v1/media?alt=A%20red%20square"), {
      method: "POST",
      headers: { authorization: `Bearer ${herald.started.firstRun.key.key}`, "content-type": "image/jpeg" },
      body: readFileSync(join(fixtures, "photo.jpg"))
    })
    const media = ((await uploaded.json()) as any).data
    assert.strictEqual(uploaded.status, 200, JSON.stringify(media))
    const x = account("x")
    const mastodon = account("mastodon")
    const original = await create({
      content: "The original",
      accountIds: [x.id, mastodon.id],
      mediaIds: [media.id],
      platformContent: { mastodon: "The original, for the fediverse" },
      firstComment: "More below",
      xThread: ["Second part"],
      platformOptions: { mastodon: { visibility: "unlisted", spoilerText: "Spoilers" } },
      scheduledAt: inFuture(2 * 60 * 60 * 1000)
    })
    await open(original.id)
    await page.getByText("The original, for the fediverse").waitFor()
    assert.strictEqual(await page.getByRole("img", { name: "A red square" }).count(), 1)
    // Each network's options as set, from the schema its adapter publishes.
    await page.getByText("Second part").waitFor()
    await page.getByText("Spoilers").waitFor()
    await history().filter({ hasText: "Scheduled for" }).waitFor()
    await accessible("post")

    await page.getByRole("button", { name: "Duplicate as draft" }).click()
    await page.waitForURL((url) => url.pathname.startsWith("/app/posts/") && !url.pathname.endsWith(original.id))
    await summary().getByText("Draft").waitFor()
    const copyId = new URL(page.url()).pathname.split("/").at(-1)!
    const copy = await read(copyId)
    assert.strictEqual(copy.status, "draft")
    assert.isNull(copy.scheduledAt)
    for (const field of ["content", "platformContent", "firstComment", "xThread", "platformOptions", "instagramFormat", "tiktok"]) {
      assert.deepStrictEqual(copy[field], original[field], field)
    }
    assert.deepStrictEqual(copy.targets.map((target: any) => target.accountId), [x.id, mastodon.id])
    assert.deepStrictEqual(copy.media.map((item: any) => item.id), [media.id])
    await history().filter({ hasText: "Created as a draft" }).waitFor()

    await page.getByRole("button", { name: "Delete" }).click()
    const dialog = page.getByRole("dialog", { name: "Delete this post?" })
    await accessible()
    await dialog.getByRole("button", { name: "Delete post" }).click()
    await page.waitForURL((url) => url.pathname === "/app/calendar")
    assert.strictEqual((await herald.api("GET", `/posts/${copyId}`)).status, 404)
    assert.strictEqual((await read(original.id)).status, "scheduled")
  })

  it("submits a draft for approval, then makes a client review link for someone new and copies it", async () => {
    const post = await create({ content: "For the client", accountIds: [account("x").id], draft: true })
    await herald.api("PATCH", `/posts/${post.id}`, { scheduledAt: inFuture(3 * 60 * 60 * 1000), draft: true })
    await open(post.id)
    await page.getByRole("button", { name: "Submit for approval" }).click()
    await summary().getByText("Awaiting approval").waitFor()
    await history().filter({ hasText: "Submitted for approval" }).waitFor()

    const review = page.getByRole("region", { name: "Client review" })
    await review.getByLabel("Reviewer", { exact: true }).selectOption("new")
    await review.getByLabel("Reviewer's name").fill("Client B")
    await review.getByRole("button", { name: "Create review link" }).click()
    const link = await review.getByLabel("Review link").inputValue()
    assert.match(link, /\/review\/.+/)
    const copied = await withClipboard(async () => {
      await review.getByRole("button", { name: "Copy review link" }).click()
      return page.evaluate("navigator.clipboard.readText()")
    })
    assert.strictEqual(copied, link)
    const profiles = (await herald.api("GET", "/review-profiles")).body.data
    assert.deepStrictEqual(profiles.map((profile: any) => profile.name), ["Client B"])
    // The link opens the review page, no sign-in needed.
    const reviewPage = await fetch(link)
    assert.strictEqual(reviewPage.status, 200)
    assert.include(await reviewPage.text(), "For the client")
    await accessible()
  })

  it("fits a phone: the post page without sideways scrolling, axe-clean", async () => {
    const post = await create({ content: "On a phone", accountIds: [account("x").id, account("mastodon").id], publishNow: true })
    const { context, page: phone } = await browser.open(herald, { width: 375, height: 740 })
    await context.addCookies(await page.context().cookies())
    await phone.goto(herald.url(`/app/posts/${post.id}`))
    await phone.locator(".page-description").getByText("Published").waitFor()
    await phone.getByRole("list", { name: "Events, oldest first" }).waitFor()
    assert.isAtMost(Number(await phone.evaluate("document.documentElement.scrollWidth")), 375)
    assert.deepStrictEqual(await checkPage(phone), [])
    await context.close()
  })
})
