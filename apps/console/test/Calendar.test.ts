import { assert, describe, it } from "@effect/vitest"
import type { Locator, Page } from "playwright-core"
import { checkPage, type Herald, missing, signInAsOwner, useConsole } from "./harness.ts"
import { skipIf } from "../../../testing/skipIf.ts"

// The calendar in headless Chromium against a real Herald whose workspace is on India time (UTC+05:30 all
// year, so an hour that shows right proves the zone is used, and no daylight saving change moves a test's
// expected instant). Posts are made through the API in a month two months ahead, so every time stays in the
// future whatever day the test runs. The tests run in order and share the posts.

const zone = "Asia/Kolkata"

/** A date `months` months after this month's first day, on day `day`: "2027-01-10". */
const dayOf = (months: number, day: number) => {
  const at = new Date()
  const date = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + months, day))
  return date.toISOString().slice(0, 10)
}
const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay()
/** Another day of the same Monday-to-Sunday week. */
const sameWeek = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + (weekday(date) === 0 ? -1 : 1) * 86_400_000).toISOString().slice(0, 10)
/** The UTC instant of a wall time in India: 09:30 there is 04:00Z. */
const india = (date: string, time: string) => new Date(Date.parse(`${date}T${time}:00+05:30`)).toISOString()

describe("the calendar", skipIf(missing), () => {
  let herald: Herald
  let page: Page
  const accounts: Record<string, string> = {}
  const ids: Record<string, string> = {}

  useConsole(async (run) => {
    herald = run.herald
    page = await signInAsOwner(run.browser, herald)
    assert.strictEqual((await herald.api("PATCH", "/workspace", { timeZone: zone })).status, 200)
    for (const account of (await herald.api("GET", "/accounts")).body.data) accounts[account.platform] = account.id
    const schedule = async (name: string, body: Record<string, unknown>) => {
      const made = await herald.api("POST", "/posts", body)
      assert.isBelow(made.status, 300, JSON.stringify(made.body))
      ids[name] = made.body.data.id
    }
    await schedule("launch", { content: "Launch announcement", accountIds: [accounts["x"], accounts["threads"]], scheduledAt: india(dayOf(2, 10), "09:30") })
    await schedule("tips", { content: "Weekly tips", accountIds: [accounts["linkedin"]], scheduledAt: india(dayOf(2, 10), "14:00") })
    await schedule("idea", { content: "Draft idea", accountIds: [accounts["x"]], draft: true })
    // A draft with a planned time shows on that day, still a draft.
    assert.strictEqual((await herald.api("PATCH", `/posts/${ids["idea"]}`, { scheduledAt: india(dayOf(2, 12), "11:15") })).status, 200)
  })

  const accessible = async (name?: string) => assert.deepStrictEqual(await checkPage(page, name), [])
  const day = (date: string) => page.locator(`[data-day="${date}"]`)
  const hour = (date: string, at: number) => page.locator(`[data-day="${date}"][data-hour="${at}"]`)
  const chip = (scope: Page | Locator, text: string) => scope.getByRole("listitem").filter({ hasText: text })
  const scheduledAt = async (name: string) => (await herald.api("GET", `/posts/${ids[name]}`)).body.data.scheduledAt
  const month = () => page.goto(herald.url(`/app/calendar?view=month&date=${dayOf(2, 10)}`))

  it("shows the month's posts on their days at their times in the workspace's zone, with networks and status in words", async () => {
    // The console opens on the calendar.
    await page.goto(herald.url("/app/"))
    await page.getByRole("heading", { name: "Calendar", level: 1 }).waitFor()
    assert.strictEqual(new URL(page.url()).pathname, "/app/calendar")
    await page.getByText(`Times in ${zone}`).waitFor()
    await month()
    await chip(day(dayOf(2, 10)), "Launch announcement").waitFor()
    const launch = await chip(day(dayOf(2, 10)), "Launch announcement").innerText()
    // 04:00Z is 9:30 in India.
    assert.include(launch, "9:30")
    assert.include(launch, "Scheduled")
    const networks = (await herald.api("GET", "/networks")).body.data as ReadonlyArray<any>
    // The networks' icons come with the networks list, which may answer after the posts: wait for both.
    await chip(day(dayOf(2, 10)), "Launch announcement").locator("img").nth(1).waitFor()
    const images = await chip(day(dayOf(2, 10)), "Launch announcement").locator("img").all()
    const names = await Promise.all(images.map((image) => image.getAttribute("alt")))
    assert.deepStrictEqual(names.sort(), networks.filter((network) => ["x", "threads"].includes(network.key)).map((network) => network.name).sort())
    assert.include(await chip(day(dayOf(2, 10)), "Weekly tips").innerText(), "2:00")
    const idea = await chip(day(dayOf(2, 12)), "Draft idea").innerText()
    assert.include(idea, "Draft")
    assert.include(idea, "11:15")
    // The URL says what is shown; the link opens the post's page.
    assert.include(page.url(), `date=${dayOf(2, 10)}`)
    await accessible("calendar-month")
  })

  it("moves a scheduled post to another day by dragging, keeping its time of day", async () => {
    await chip(day(dayOf(2, 10)), "Launch announcement").getByRole("link").dragTo(day(dayOf(2, 17)))
    await page.getByText(/Moved to/).waitFor()
    await chip(day(dayOf(2, 17)), "Launch announcement").waitFor()
    assert.strictEqual(await chip(day(dayOf(2, 10)), "Launch announcement").count(), 0)
    assert.strictEqual(await scheduledAt("launch"), india(dayOf(2, 17), "09:30"))
  })

  it("shows the week by hours, and a post dragged to another hour keeps its minutes", async () => {
    await page.getByRole("link", { name: "Week", exact: true }).click()
    await page.getByRole("button", { name: "Next" }).click()
    await chip(hour(dayOf(2, 17), 9), "Launch announcement").waitFor()
    assert.include(page.url(), "view=week")
    assert.include(await chip(hour(dayOf(2, 17), 9), "Launch announcement").innerText(), "Scheduled")
    await accessible("calendar-week")
    // Both hours on screen at once: a drag does not scroll the page for the test as a hand would.
    await page.setViewportSize({ width: 1280, height: 1800 })
    await chip(hour(dayOf(2, 17), 9), "Launch announcement").getByRole("link").dragTo(hour(sameWeek(dayOf(2, 17)), 15))
    await chip(hour(sameWeek(dayOf(2, 17)), 15), "Launch announcement").waitFor()
    assert.strictEqual(await scheduledAt("launch"), india(sameWeek(dayOf(2, 17)), "15:30"))
    await page.setViewportSize({ width: 1280, height: 800 })
  })

  it("moves a post from the keyboard with its Move… button, and shows the API's refusal of a past time", async () => {
    await month()
    const tips = chip(day(dayOf(2, 10)), "Weekly tips")
    await tips.getByRole("link").focus()
    await page.keyboard.press("Tab")
    const move = tips.getByRole("button", { name: /^Move…/ })
    // Out of the way until the post has focus, then shown where the focus is.
    assert.isTrue(await move.evaluate((button) => button === (globalThis as any).document.activeElement))
    assert.isAbove((await move.boundingBox())?.width ?? 0, 10)
    await page.keyboard.press("Enter")
    const dialog = page.getByRole("dialog", { name: "Move the post" })
    const input = dialog.getByLabel("New date and time")
    assert.strictEqual(await input.inputValue(), `${dayOf(2, 10)}T14:00`)
    await input.fill("2020-01-06T10:00")
    await dialog.getByRole("button", { name: "Move post" }).click()
    const error = dialog.locator(".field-error, [role=alert]")
    await error.first().waitFor()
    assert.match(await error.first().innerText(), /past|publishNow/i)
    assert.strictEqual(await scheduledAt("tips"), india(dayOf(2, 10), "14:00"))
    await input.fill(`${dayOf(2, 20)}T16:45`)
    await input.press("Enter")
    await dialog.waitFor({ state: "hidden" })
    await chip(day(dayOf(2, 20)), "Weekly tips").waitFor()
    assert.strictEqual(await scheduledAt("tips"), india(dayOf(2, 20), "16:45"))
  })

  it("shows why a drag was refused: the post was deleted meanwhile", async () => {
    await chip(day(dayOf(2, 12)), "Draft idea").waitFor()
    assert.strictEqual((await herald.api("DELETE", `/posts/${ids["idea"]}`)).status < 300, true)
    await chip(day(dayOf(2, 12)), "Draft idea").getByRole("link").dragTo(day(dayOf(2, 13)))
    const alert = page.getByRole("alert")
    await alert.waitFor()
    assert.include(await alert.innerText(), "Could not move the post")
  })

  it("shows the queue's free slots as free places", async () => {
    const slots = await herald.api("PUT", "/queue/schedule", { slots: [{ day: "mon", time: "08:00" }] })
    assert.strictEqual(slots.status, 200, JSON.stringify(slots.body))
    // The first Monday on or after the 14th of the shown month.
    const monday = [14, 15, 16, 17, 18, 19, 20].map((date) => dayOf(2, date)).find((date) => weekday(date) === 1)!
    const connected = ((await herald.api("GET", "/accounts")).body.data as ReadonlyArray<any>).filter((account) => account.status === "connected")
    await page.goto(herald.url(`/app/calendar?view=month&date=${dayOf(2, 10)}`))
    await day(monday).getByText(`${connected.length} free queue slot`).waitFor()
    await page.goto(herald.url(`/app/calendar?view=week&date=${monday}`))
    await hour(monday, 8).getByText("Free slot").first().waitFor()
    assert.strictEqual(await hour(monday, 8).getByText("Free slot").count(), connected.length)
    // A queued post takes a slot and reads "Queued".
    const queued = await herald.api("POST", "/posts", { content: "Queued thought", accountIds: [accounts["x"]], queued: true })
    assert.isBelow(queued.status, 300, JSON.stringify(queued.body))
    const at = queued.body.data.scheduledAt as string
    const date = new Date(Date.parse(at) + 5.5 * 3_600_000).toISOString().slice(0, 10)
    await page.goto(herald.url(`/app/calendar?view=week&date=${date}`))
    assert.include(await chip(page, "Queued thought").innerText(), "Queued")
  })

  it("lists posts with filters by status, account and days, a page at a time", async () => {
    const first = dayOf(3, 1)
    for (let i = 0; i < 25; i++) {
      const made = await herald.api("POST", "/posts", {
        content: `Batch post ${i + 1}`,
        accountIds: [i % 5 === 0 ? accounts["threads"] : accounts["linkedin"]],
        scheduledAt: india(dayOf(3, 2 + (i % 20)), "10:00")
      })
      assert.isBelow(made.status, 300, JSON.stringify(made.body))
    }
    await page.goto(herald.url(`/app/calendar?view=list&from=${first}&to=${dayOf(3, 28)}`))
    const rows = page.getByRole("table", { name: "Posts" }).locator("tbody tr")
    await rows.nth(19).waitFor()
    assert.strictEqual(await rows.count(), 20)
    await page.getByRole("button", { name: "Load more" }).click()
    await rows.nth(24).waitFor()
    assert.strictEqual(await page.getByRole("button", { name: "Load more" }).count(), 0)
    assert.include(await rows.first().innerText(), "Batch post 1")

    await page.getByLabel("Account").selectOption({ label: (await page.getByLabel("Account").locator("option").allInnerTexts()).find((name) => name.includes("threads"))! })
    await rows.nth(4).waitFor()
    await rows.nth(5).waitFor({ state: "detached" })
    assert.include(page.url(), `account=${accounts["threads"]}`)

    await page.getByLabel("Account").selectOption("")
    await page.getByLabel("Status").selectOption("draft")
    await page.getByText("No posts match these filters").waitFor()
    await page.getByLabel("Status").selectOption("scheduled")
    await page.getByLabel("To").fill(dayOf(3, 2))
    await rows.first().waitFor()
    // The 2nd holds posts 1 and 21.
    await rows.nth(1).waitFor()
    await rows.nth(2).waitFor({ state: "detached" })
    assert.include(page.url(), `to=${dayOf(3, 2)}`)
    await accessible()
  })

  it("fits a phone: the month as a list of days, the week and the list, all axe-clean", async () => {
    await page.setViewportSize({ width: 375, height: 740 })
    const overflow = () => page.evaluate(() => (globalThis as any).document.documentElement.scrollWidth - (globalThis as any).innerWidth)
    await month()
    await page.getByRole("heading", { name: /January|February|March|April|May|June|July|August|September|October|November|December/ }).first().waitFor()
    const tips = chip(day(dayOf(2, 20)), "Weekly tips")
    await tips.waitFor()
    // Each day under its full date; the days with nothing in them, out of the way.
    assert.isTrue(await day(dayOf(2, 20)).getByRole("heading").isVisible())
    const quiet = [22, 23, 24].map((date) => dayOf(2, date)).find((date) => weekday(date) !== 1)!
    assert.isFalse(await day(quiet).isVisible())
    assert.isTrue(await tips.getByRole("button", { name: /^Move…/ }).isVisible())
    assert.isAtMost(await overflow(), 0)
    await accessible()
    await page.getByRole("link", { name: "Week", exact: true }).click()
    await page.getByRole("region", { name: "Week" }).waitFor()
    assert.isAtMost(await overflow(), 0)
    await accessible()
    await page.getByRole("link", { name: "List", exact: true }).click()
    await page.getByLabel("Status").waitFor()
    assert.isAtMost(await overflow(), 0)
    await accessible()
    await page.setViewportSize({ width: 1280, height: 800 })
  })
})
