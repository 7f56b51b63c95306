import { assert, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { createHmac } from "node:crypto"
import { backends } from "@herald/db/testing"
import { eventually } from "../../../testing/eventually.ts"
import { baseUrl, examplePackage, fastTuning, request, serverLayer } from "./harness.ts"
import { cursorOf, setup as inboxSetup } from "./inbox.ts"
import { events } from "./publishing.ts"

// The inbox over real HTTP with the kit's example network: comments and direct messages injected through
// the sandbox's control routes (or straight into the simulator, for an exact round), read by a polling
// round, announced as events, listed and answered through the API.

const setup = Effect.gen(function*() {
  const context = yield* inboxSetup()
  const { account, inbox, workspace } = context
  // Connecting the account set its inbox's starting point: what arrives from now on is news.
  assert.isString((yield* cursorOf(account.id)).cursor, "the starting point is set when the account connects")
  const poll = Effect.orDie(inbox.pollDue)
  const seen = (name: string) => Effect.map(events(workspace.id), (rows) => rows.filter((row) => row.event === name))
  /** Reads until `count` events of a kind are there: the server's own rounds may get to the items first. */
  const arrived = (name: string, count = 1) =>
    eventually(`${count} ${name}`, Effect.andThen(poll, Effect.map(seen(name), (rows) => rows.length >= count && rows)), { everyMs: 50 })
  return { ...context, arrived, poll, seen }
})

for (const backend of backends()) layer(serverLayer({}, [examplePackage], backend, { ...fastTuning, inboxPollEvery: Duration.zero }), { excludeTestServices: true })(`inbox on ${backend.name}`, (it) => {
  it.effect("a comment arrives as comment.received, is listed, and answered on the network", () =>
    Effect.gen(function*() {
      const { account, arrived, control, poll, seen, send, simulator } = yield* setup
      const injected = yield* control("comments", { author: "fan_1", text: "Love this! ".repeat(40) })
      assert.strictEqual(injected.status, 201, injected.text)
      const [received] = yield* arrived("comment.received")
      assert.isDefined(received)
      assert.deepInclude(received!.data, { accountId: account.id, platform: "example", reply: null })
      assert.match(received!.data.inboxItemId, /^cmt_/)
      assert.deepInclude(received!.data.author, { username: "fan_1" })
      assert.lengthOf([...received!.data.text], 280)
      assert.strictEqual(received!.data.permalink, injected.body.permalink)

      for (const query of ["limit=0", "limit=101", "limit=x", "cursor=bm9wZQ"]) {
        const bad = yield* send("GET", `/inbox/comments?${query}`)
        assert.strictEqual(bad.status, 400, query)
        assert.strictEqual(bad.body.error.code, "invalid")
      }
      const listed = (yield* send("GET", "/inbox/comments")).body
      assert.lengthOf(listed.data, 1)
      assert.deepInclude(listed.data[0], { id: received!.data.inboxItemId, accountId: account.id, outgoing: false, reply: null })
      const reply = yield* send("POST", `/inbox/comments/${received!.data.inboxItemId}/reply`, { text: "Thank you!" })
      assert.strictEqual(reply.status, 200, reply.text)
      assert.deepInclude(reply.body.data, { text: "Thank you!", outgoing: true, reply: received!.data.inboxItemId })
      assert.isTrue([...simulator.state.comments.values()].some((comment) => comment.text === "Thank you!" && comment.replyTo === injected.body.id))
      // The reply comes back in the next read: stored once, announced never.
      yield* eventually(
        "the reply read back",
        Effect.andThen(poll, Effect.map(send("GET", "/inbox/comments"), (answer) => answer.body.data.length >= 2))
      )
      assert.lengthOf((yield* send("GET", "/inbox/comments")).body.data, 2)
      assert.lengthOf(yield* seen("comment.received"), 1)
    }))

  it.effect("a direct message arrives as message.received; a reply through the API emits message.sent", () =>
    Effect.gen(function*() {
      const { account, arrived, control, poll, seen, send } = yield* setup
      assert.strictEqual((yield* control("messages", { author: "client_9", text: "Are you open Sunday?", attachments: 2 })).status, 201)
      const [received] = yield* arrived("message.received")
      assert.deepInclude(received!.data, { accountId: account.id, platform: "example", from: "client_9", text: "Are you open Sunday?", attachments: 2 })
      const conversations = (yield* send("GET", "/inbox/conversations")).body.data
      assert.lengthOf(conversations, 1)
      assert.strictEqual(conversations[0].id, received!.data.conversationId)
      assert.strictEqual(conversations[0].counterpart.username, "client_9")
      const sent = yield* send("POST", `/inbox/conversations/${conversations[0].id}/messages`, { text: "Yes, 10 to 4." })
      assert.strictEqual(sent.status, 200, sent.text)
      assert.isTrue(sent.body.data.outgoing)
      const [announced] = yield* seen("message.sent")
      assert.deepInclude(announced!.data, { conversationId: conversations[0].id, to: "client_9", text: "Yes, 10 to 4.", messageId: sent.body.data.id })
      yield* poll
      const thread = (yield* send("GET", `/inbox/conversations/${conversations[0].id}/messages`)).body.data
      assert.deepStrictEqual(thread.map((message: any) => message.text), ["Yes, 10 to 4.", "Are you open Sunday?"])
      assert.lengthOf(yield* seen("message.sent"), 1, "the reply read back is not announced again")
      assert.strictEqual((yield* send("GET", "/inbox/conversations/cnv_0000000000000000000000/messages")).status, 404)
    }))

  it.effect("an answer written in the network's own app arrives as message.sent, to the person it answers", () =>
    Effect.gen(function*() {
      const { account, arrived, control, simulator, tag } = yield* setup
      const asked = yield* control("messages", { author: "client_7", text: "Still open?" })
      yield* arrived("message.received")
      const own = simulator.state.accountByUsername(`${tag}_ex`)!
      simulator.state.addMessage({
        accountId: own.id,
        from: { id: own.id, username: own.username },
        text: "Until six.",
        conversationId: asked.body.conversationId,
        outgoing: true
      })
      const [sent] = yield* arrived("message.sent")
      assert.deepInclude(sent!.data, { accountId: account.id, platform: "example", to: "client_7", text: "Until six." })
    }))

  it.effect("more than 10 comments in one round arrive as one summary event", () =>
    Effect.gen(function*() {
      const { arrived, poll, seen, send, simulator, tag } = yield* setup
      const account = simulator.state.accountByUsername(`${tag}_ex`)!
      // All at once, so whichever round reads them reads all 11.
      for (let index = 0; index < 11; index++) {
        simulator.state.addComment({ accountId: account.id, author: { username: `fan_${index}` }, text: `Comment ${index}` })
      }
      yield* arrived("comment.received")
      yield* poll
      const received = yield* seen("comment.received")
      assert.lengthOf(received, 1)
      assert.deepStrictEqual(received[0]!.data, { count: 11, platforms: ["example"], summary: true })
      // All 11 are in the inbox, a page at a time, newest first, each once.
      const ids: Array<string> = []
      let cursor: string | null = null
      do {
        const page: any = (yield* send("GET", `/inbox/comments?limit=4${cursor === null ? "" : `&cursor=${cursor}`}`)).body
        assert.isAtMost(page.data.length, 4)
        ids.push(...page.data.map((comment: { id: string }) => comment.id))
        cursor = page.nextCursor
      } while (cursor !== null)
      assert.lengthOf(ids, 11)
      assert.strictEqual(new Set(ids).size, 11)
    }))

  it.effect("the network's own webhook, signed, has the account read at once; a bad signature is refused", () =>
    Effect.gen(function*() {
      const { arrived, control, simulator, tag } = yield* setup
      const base = yield* baseUrl
      const networkAccountId = simulator.state.accountByUsername(`${tag}_ex`)!.id
      const hook = `${base}/networks/example/webhook`
      const challenge = yield* request(`${hook}?challenge=abc123`)
      assert.strictEqual(challenge.status, 200)
      assert.strictEqual(challenge.text, "abc123")
      const notTheCheck = yield* request(`${hook}?hello=1`)
      assert.strictEqual(notTheCheck.status, 400)
      assert.strictEqual(notTheCheck.body.error.code, "invalid")
      const body = JSON.stringify({ accounts: [networkAccountId] })
      // The sandbox's example app secret.
      const signature = `sha256=${createHmac("sha256", "sandbox-secret").update(body).digest("hex")}`
      const forged = yield* request(hook, { method: "POST", headers: { "x-example-signature": "sha256=00", "content-type": "application/json" }, body })
      assert.strictEqual(forged.status, 401)
      assert.strictEqual(forged.body.error.code, "unauthorized")
      yield* control("comments", { author: "fan_web", text: "Announced by the network" })
      const signed = yield* request(hook, { method: "POST", headers: { "x-example-signature": signature, "content-type": "application/json" }, body })
      assert.strictEqual(signed.status, 200, signed.text)
      assert.deepStrictEqual(signed.body, { received: 1 })
      // Due now, whatever its schedule said.
      const sql = yield* SqlClient.SqlClient
      const [due] = yield* Effect.orDie(sql<{ readonly due: boolean }>`
        SELECT c.next_poll_at <= now() AS due FROM inbox_cursors c JOIN accounts a ON a.id = c.account_id
        WHERE a.network_account_id = ${networkAccountId} AND a.platform = 'example'`)
      assert.isTrue(due!.due)
      const [received] = yield* arrived("comment.received")
      assert.strictEqual(received!.data.text, "Announced by the network")
      assert.strictEqual((yield* request(`${base}/networks/tiktok/webhook`, { method: "POST", body: "{}" })).status, 404)
    }))
})
