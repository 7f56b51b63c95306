import { assert, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Inbox } from "@herald/core"
import * as Packages from "../src/Packages.ts"
import { eventually } from "../../../testing/eventually.ts"
import { baseUrl, bearer, fastTuning, request, serverLayer } from "./harness.ts"
import { events, settled, setup } from "./publishing.ts"

// The inbox with two real networks' adapters and simulators: a post published through Herald to X and to a
// Facebook Page, comments left under both and a Messenger message, injected through the sandbox's control
// routes, arrive as events with the documented fields, the comments linked to Herald's post.

layer(serverLayer({}, Packages.all, undefined, { ...fastTuning, inboxPollEvery: Duration.zero }), { excludeTestServices: true })("inbox on two networks", (it) => {
  it.effect("comments on X and Facebook and a Messenger message arrive as events, linked to the post Herald made", () =>
    Effect.gen(function*() {
      const { accounts, create, get, key, send, workspace } = yield* setup(["x", "facebook", "youtube"])
      const base = yield* baseUrl
      const inbox = yield* Inbox.Inbox
      const sql = yield* SqlClient.SqlClient
      // Connecting each account set its inbox's starting point.
      for (const accountId of Object.values(accounts)) {
        const [row] = yield* Effect.orDie(sql<{ readonly cursor: string | null }>`SELECT cursor FROM inbox_cursors WHERE account_id = ${accountId}`)
        assert.isString(row?.cursor, accountId)
      }
      const post = yield* create({ content: "Out now, tell us what you think", accountIds: [accounts.x, accounts.facebook], publishNow: true })
      assert.strictEqual((yield* settled(get, post.id)).status, "published")
      const usernames = Object.fromEntries(
        (yield* Effect.orDie(sql<{ readonly platform: string; readonly username: string }>`
          SELECT platform, username FROM accounts WHERE workspace_id = ${workspace.id}`)).map((row) => [row.platform, row.username])
      )
      const control = (network: string, kind: "comments" | "messages", body: Record<string, unknown>) =>
        request(`${base}/sandbox/${network}/_control/${kind}`, {
          method: "POST",
          headers: { ...bearer(key.key), "content-type": "application/json" },
          body: JSON.stringify({ username: usernames[network], ...body })
        })
      assert.strictEqual((yield* control("x", "comments", { author: "x_fan", text: "Great thread" })).status, 201)
      assert.strictEqual((yield* control("facebook", "comments", { author: "fb_fan", text: "Congrats!" })).status, 201)
      assert.strictEqual((yield* control("facebook", "messages", { author: "fb_client", text: "Do you ship to Norway?", attachments: 1 })).status, 201)

      const rows = yield* eventually(
        "two comments and a message read",
        Effect.andThen(
          Effect.orDie(inbox.pollDue),
          Effect.map(events(workspace.id), (rows) =>
            rows.filter((row) => row.event === "comment.received").length >= 2 && rows.some((row) => row.event === "message.received") &&
            rows)
        ),
        { everyMs: 100 }
      )
      const comments = rows.filter((row) => row.event === "comment.received").map((row) => row.data)
      assert.lengthOf(comments, 2, JSON.stringify(rows.map((row) => row.event)))
      const onX = comments.find((data) => data.platform === "x")!
      const onFacebook = comments.find((data) => data.platform === "facebook")!
      for (const [data, accountId, text] of [[onX, accounts.x, "Great thread"], [onFacebook, accounts.facebook, "Congrats!"]] as const) {
        assert.strictEqual(data.accountId, accountId)
        assert.strictEqual(data.text, text)
        assert.match(data.inboxItemId, /^cmt_/)
        assert.isNull(data.reply)
        assert.hasAllKeys(data.author, ["id", "username", "name"])
        assert.strictEqual(data.post.id, post.id, "linked to the post Herald made")
        assert.isTrue(data.permalink === null || typeof data.permalink === "string")
      }
      assert.strictEqual(onX.author.username, "x_fan")
      const message = rows.find((row) => row.event === "message.received")!.data
      assert.deepInclude(message, { accountId: accounts.facebook, platform: "facebook", text: "Do you ship to Norway?", attachments: 1 })
      assert.match(message.conversationId, /^cnv_/)
      assert.match(message.messageId, /^dm_/)
      assert.isString(message.from)

      // Answered through the API, on each network, as the account.
      const replied = yield* send("POST", `/inbox/comments/${onX.inboxItemId}/reply`, { text: "Thanks!" })
      assert.strictEqual(replied.status, 200, replied.text)
      assert.deepInclude(replied.body.data, { platform: "x", outgoing: true, reply: onX.inboxItemId, text: "Thanks!" })
      const answered = yield* send("POST", `/inbox/conversations/${message.conversationId}/messages`, { text: "Yes, we do." })
      assert.strictEqual(answered.status, 200, answered.text)
      const sent = (yield* events(workspace.id)).filter((row) => row.event === "message.sent")
      assert.lengthOf(sent, 1)
      assert.deepInclude(sent[0]!.data, { accountId: accounts.facebook, platform: "facebook", conversationId: message.conversationId, text: "Yes, we do." })

      // A network's own least interval counts over Herald's (here none): YouTube's quota asks 15 minutes.
      yield* Effect.orDie(inbox.pollDue)
      const spacing = yield* Effect.orDie(sql<{ readonly accountId: string; readonly seconds: number | string }>`
        SELECT account_id, extract(epoch FROM next_poll_at - polled_at) AS seconds FROM inbox_cursors
        WHERE ${sql.in("account_id", [accounts.x, accounts.youtube])}`)
      const seconds = Object.fromEntries(spacing.map((row) => [row.accountId, Number(row.seconds)]))
      assert.strictEqual(seconds[accounts.youtube!], 15 * 60)
      assert.strictEqual(seconds[accounts.x!], 0)
    }))
})
