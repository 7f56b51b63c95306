import { assert, describe, it } from "@effect/vitest"
import type { Page } from "playwright-core"
import { checkPage, type Herald, missing, signInAsOwner, useConsole } from "./harness.ts"
import { skipIf } from "../../../testing/skipIf.ts"
import { patience } from "../../../vitest.shared.ts"
import { poll } from "../../../testing/eventually.ts"

// The inbox in headless Chromium against a real Herald in the sandbox: comments and a direct message left
// on the Demo workspace's sandbox accounts through the simulators' control routes (docs/inbox.md, "In the
// sandbox"), each read by the next polling round (every 5 s). The comments are in the inbox when the page
// opens; the message comes while it is open, at the page's next look (every 15 s). The tests run in order.

// What arrives on an open page is waited for with the tests' whole patience, not a step's third of it: a
// round and a look of the page stand between the item and its showing.
const arrival = patience

const leave = async (herald: Herald, network: string, kind: "comments" | "messages", author: string, text: string) => {
  const response = await fetch(herald.url(`/sandbox/${network}/_control/${kind}`), {
    method: "POST",
    headers: { authorization: `Bearer ${herald.started.firstRun.key.key}`, "content-type": "application/json" },
    body: JSON.stringify({ username: `demo_${network}`, author, text })
  })
  assert.strictEqual(response.status, 201, await response.text())
}

describe("Inbox", skipIf(missing), () => {
  let herald: Herald
  let page: Page

  useConsole(async (run) => {
    herald = run.herald
    page = await signInAsOwner(run.browser, herald)
  })

  const accessible = async (name?: string) => assert.deepStrictEqual(await checkPage(page, name), [])
  const comments = () => page.getByRole("list", { name: "Comments" }).locator(":scope > li")
  const tab = (name: RegExp) => page.getByRole("tab", { name })

  it("shows new comments from two networks with their unread count, filtered by network and by account", async () => {
    await leave(herald, "x", "comments", "a_fan", "Love the new menu")
    await leave(herald, "mastodon", "comments", "b_fan", "When do you open?")
    const unread = await poll(() => herald.api("GET", "/inbox/unread"), (answer) => answer.body.data.comments === 2)
    assert.strictEqual(unread.body.data.comments, 2, "the next round reads both comments")

    await page.getByRole("link", { name: "Inbox" }).click()
    await page.getByRole("heading", { name: "Inbox", level: 1 }).waitFor()
    await page.getByText("Love the new menu").waitFor()
    await page.getByText("When do you open?").waitFor()
    await tab(/^Comments 2 unread$/).waitFor()
    assert.strictEqual(await comments().count(), 2)
    assert.strictEqual(await page.getByText("Unread", { exact: true }).count(), 2)

    // One network.
    await page.getByLabel("Network").selectOption({ label: "X, 1 unread" })
    await page.getByText("When do you open?").waitFor({ state: "detached" })
    await page.getByText("Love the new menu").waitFor()
    assert.strictEqual(await comments().count(), 1)
    // One account, whatever the network.
    await page.getByLabel("Network").selectOption({ label: "All networks" })
    await page.getByLabel("Account").selectOption({ label: "@demo_mastodon (Mastodon), 1 unread" })
    await page.getByText("Love the new menu").waitFor({ state: "detached" })
    await page.getByText("When do you open?").waitFor()
    assert.strictEqual(await comments().count(), 1)
    await page.getByLabel("Account").selectOption({ label: "All accounts" })
    await page.getByText("Love the new menu").waitFor()
    await page.getByText("When do you open?").waitFor()
    await accessible("inbox")
  })

  it("answers a comment in place, shows the reply under it, and the unread count goes down", async () => {
    const item = comments().filter({ hasText: "Love the new menu" })
    await item.getByRole("button", { name: /^Reply to .*a_fan/ }).click()
    await item.getByLabel(/^Reply to .*a_fan/).fill("Thank you! Try the soup.")
    await item.getByRole("button", { name: "Send" }).click()
    const replies = item.getByRole("list", { name: /^Replies to .*a_fan/ })
    await replies.getByText("Thank you! Try the soup.").waitFor()
    await tab(/^Comments 1 unread$/).waitFor()

    // The other, read without answering: no unread comment is left.
    await comments().filter({ hasText: "When do you open?" }).getByRole("button", { name: /^Mark as read\b.*b_fan/ }).click()
    await tab(/^Comments$/).waitFor()
    // The counts and the list are two answers: the list's may come a moment later.
    await comments().filter({ hasText: "When do you open?" }).getByText("Unread", { exact: true }).waitFor({ state: "detached" })
    assert.strictEqual(await page.getByText("Unread", { exact: true }).count(), 0)
    // What the API now says, not only what the page shows.
    const unread = await herald.api("GET", "/inbox/unread")
    assert.strictEqual(unread.body.data.comments, 0)
  })

  it("opens a conversation, which reads it, and sends a message in it", async () => {
    await leave(herald, "x", "messages", "c_client", "Do you take bookings?")
    await tab(/^Conversations 1 unread$/).waitFor({ timeout: arrival })
    await tab(/^Conversations/).click()
    const conversation = page.getByRole("list", { name: "Conversations" }).locator(":scope > li").filter({ hasText: "c_client" })
    await conversation.getByRole("button", { name: /^Open the conversation with .*c_client/ }).click()
    const thread = conversation.getByRole("list", { name: /^Messages with .*c_client/ })
    await thread.getByText("Do you take bookings?").waitFor()
    await tab(/^Conversations$/).waitFor()

    await conversation.getByLabel(/^Message to .*c_client/).fill("Yes, call us any day.")
    await conversation.getByRole("button", { name: "Send" }).click()
    await thread.getByText("Yes, call us any day.").waitFor()
    await accessible()

    // A phone's width: the same page, still accessible.
    await page.setViewportSize({ width: 390, height: 844 })
    await tab(/^Comments/).click()
    await page.getByText("Love the new menu").waitFor()
    await accessible("inbox-phone")
  })
})
