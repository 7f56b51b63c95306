import { assert, layer } from "@effect/vitest"
import { Duration, Effect } from "effect"
import * as SandboxConnect from "../src/SandboxConnect.ts"
import { backends } from "@herald/db/testing"
import { eventually } from "../../../testing/eventually.ts"
import { examplePackage, fastTuning, serverLayer } from "./harness.ts"
import { setup } from "./inbox.ts"

// Unread counts and read marks (decision 0044), and the inbox filtered by account and network, over real
// HTTP: items injected through the sandbox's control routes, read by a polling round.

const setupWithReads = Effect.gen(function*() {
  const context = yield* setup("u")
  const poll = Effect.orDie(context.inbox.pollDue)
  /** Polls until the workspace holds `count` comments or conversations: the server's own rounds may be first. */
  const stored = (path: "/inbox/comments" | "/inbox/conversations", count: number) =>
    eventually(
      `${count} items at ${path}`,
      Effect.andThen(poll, Effect.map(context.send("GET", path), (answer): Array<any> | false => answer.body.data.length >= count && answer.body.data)),
      { everyMs: 50 }
    )
  const unread = Effect.map(context.send("GET", "/inbox/unread"), (response) => response.body.data)
  return { ...context, poll, stored, unread }
})

for (const backend of backends()) layer(serverLayer({}, [examplePackage], backend, { ...fastTuning, inboxPollEvery: Duration.zero }), { excludeTestServices: true })(`inbox unread on ${backend.name}`, (it) => {
  it.effect("received comments are unread until marked read; replies are never unread", () =>
    Effect.gen(function*() {
      const { account, control, send, stored, unread } = yield* setupWithReads
      assert.deepStrictEqual(yield* unread, {
        comments: 0,
        conversations: 0,
        accounts: [{ accountId: account.id, platform: "example", comments: 0, conversations: 0 }]
      })
      yield* control("comments", { author: "fan_1", text: "First" })
      yield* control("comments", { author: "fan_2", text: "Second" })
      const comments = yield* stored("/inbox/comments", 2)
      assert.deepStrictEqual(comments.map((comment: any) => comment.read), [false, false])
      assert.deepInclude(yield* unread, { comments: 2, conversations: 0 })
      assert.strictEqual((yield* unread).accounts[0].comments, 2)

      const first = comments.find((comment: any) => comment.text === "First")
      const read = yield* send("POST", `/inbox/comments/${first.id}/read`)
      assert.strictEqual(read.status, 200, read.text)
      assert.deepInclude(read.body.data, { id: first.id, read: true })
      // Again is no change, and no error.
      assert.strictEqual((yield* send("POST", `/inbox/comments/${first.id}/read`)).status, 200)
      assert.strictEqual((yield* unread).comments, 1)

      const reply = yield* send("POST", `/inbox/comments/${first.id}/reply`, { text: "Thanks!" })
      assert.strictEqual(reply.status, 200, reply.text)
      assert.isTrue(reply.body.data.read, "the account's own reply is read")
      assert.strictEqual((yield* unread).comments, 1)

      const missing = yield* send("POST", "/inbox/comments/cmt_0000000000000000000000/read")
      assert.strictEqual(missing.status, 404)
      assert.strictEqual(missing.body.error.code, "not_found")
    }))

  it.effect("a conversation counts its unread messages until read; a later message is unread again", () =>
    Effect.gen(function*() {
      const { control, send, stored, unread } = yield* setupWithReads
      yield* control("messages", { author: "client_1", text: "Open Sunday?" })
      yield* control("messages", { author: "client_1", text: "And Monday?" })
      const [conversation] = yield* stored("/inbox/conversations", 1)
      assert.strictEqual(conversation.unread, 2)
      assert.deepInclude(yield* unread, { comments: 0, conversations: 1 })

      const read = yield* send("POST", `/inbox/conversations/${conversation.id}/read`)
      assert.strictEqual(read.status, 200, read.text)
      assert.deepInclude(read.body.data, { id: conversation.id, unread: 0 })
      assert.strictEqual((yield* unread).conversations, 0)

      // The account's answer does not make it unread; the person's next message does.
      assert.strictEqual((yield* send("POST", `/inbox/conversations/${conversation.id}/messages`, { text: "Yes" })).status, 200)
      assert.strictEqual((yield* unread).conversations, 0)
      yield* control("messages", { author: "client_1", text: "Great" })
      const again = yield* eventually(
        "the person's next message",
        Effect.andThen(
          stored("/inbox/conversations", 1),
          Effect.map(send("GET", "/inbox/conversations"), (answer) => answer.body.data[0].unread !== 0 && answer.body.data[0].unread)
        )
      )
      assert.strictEqual(again, 1)
      assert.strictEqual((yield* unread).conversations, 1)
      assert.strictEqual((yield* send("POST", "/inbox/conversations/cnv_0000000000000000000000/read")).status, 404)
    }))

  it.effect("comments and conversations filter by account and by network; counts are per account", () =>
    Effect.gen(function*() {
      const { account, control, send, stored, tag, unread, workspace } = yield* setupWithReads
      const other = yield* Effect.orDie(SandboxConnect.connect({ workspaceId: workspace.id, platform: "example", username: `${tag}_two` }))
      yield* control("comments", { author: "fan_1", text: "On the first" })
      yield* control("comments", { username: `${tag}_two`, author: "fan_2", text: "On the second" })
      yield* control("messages", { username: `${tag}_two`, author: "client_2", text: "Hello second" })
      yield* stored("/inbox/comments", 2)
      yield* stored("/inbox/conversations", 1)

      const texts = (path: string) => Effect.map(send("GET", path), (response) => response.body.data.map((item: any) => item.text ?? item.counterpart.username))
      assert.deepStrictEqual(yield* texts(`/inbox/comments?accountId=${account.id}`), ["On the first"])
      assert.deepStrictEqual(yield* texts(`/inbox/comments?accountId=${other.id}`), ["On the second"])
      assert.lengthOf(yield* texts("/inbox/comments?platform=example"), 2)
      assert.deepStrictEqual(yield* texts("/inbox/comments?platform=elsewhere"), [])
      assert.deepStrictEqual(yield* texts(`/inbox/comments?platform=example&accountId=${other.id}`), ["On the second"])
      assert.deepStrictEqual(yield* texts(`/inbox/conversations?accountId=${other.id}`), ["client_2"])
      assert.deepStrictEqual(yield* texts(`/inbox/conversations?accountId=${account.id}`), [])

      const counts = yield* unread
      assert.deepInclude(counts, { comments: 2, conversations: 1 })
      const byAccount = Object.fromEntries(counts.accounts.map((entry: any) => [entry.accountId, [entry.comments, entry.conversations]]))
      assert.deepStrictEqual(byAccount, { [account.id]: [1, 0], [other.id]: [1, 1] })
    }))
})
