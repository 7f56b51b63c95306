import { assert, layer } from "@effect/vitest"
import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { Duration, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { createServer } from "node:http"
import { ApiKeys, Inbox, Team } from "@herald/core"
import * as SandboxConnect from "../src/SandboxConnect.ts"
import { eventually } from "../../../testing/eventually.ts"
import { acceptAs, baseUrl, bearer, examplePackage, fastTuning, request, serverLayer, workspaceWithKey } from "./harness.ts"
import { call, connect } from "./mcpClient.ts"

// The tools issue 19 adds (docs/mcp.md), driven by the SDK's client against the REST API's answers for the
// same resources: networks, a post's way through review and retry, the inbox, and media from a URL.

/** A failed call's REST error, read from its text. */
const failure = (result: CallToolResult) => {
  assert.isTrue(result.isError, JSON.stringify(result))
  const first = result.content[0] as { type: string; text: string }
  return JSON.parse(first.text).error as { code: string; message: string; details?: ReadonlyArray<{ field: string }> }
}

/** A successful call's body: the structured content, which the text repeats. */
const success = (result: CallToolResult) => {
  assert.notStrictEqual(result.isError, true, JSON.stringify(result))
  const first = result.content[0] as { type: string; text: string }
  assert.deepStrictEqual(JSON.parse(first.text), result.structuredContent)
  return result.structuredContent as any
}

const added = [
  "list_networks", "retry_post", "submit_post", "approve_post", "request_changes", "list_inbox", "reply_to_comment",
  "send_message", "upload_media_from_url"
]

/** Connects and lists the tools, so the SDK client checks every structured result against its tool's outputSchema. */
const connected = (base: string, key: string) =>
  Effect.gen(function*() {
    const client = yield* connect(base, key)
    const { tools } = yield* Effect.promise(() => client.listTools())
    // The client holds a validator for each new tool's output: a result that does not fit fails the call.
    const validatorOf = (client as unknown as { getToolOutputValidator(name: string): unknown }).getToolOutputValidator.bind(client)
    for (const name of added) assert.isFunction(validatorOf(name), name)
    return { client, tools }
  })

let workspaces = 0

const setup = Effect.gen(function*() {
  const base = yield* baseUrl
  const tag = `t${++workspaces}${Date.now().toString(36)}`
  const { key, workspace } = yield* workspaceWithKey(tag, `owner@${tag}.test`)
  const team = yield* Team.Team
  const apiKeys = yield* ApiKeys.ApiKeys
  const invitation = yield* Effect.orDie(team.invite(workspace.id, { email: `ed@${tag}.test`, role: "editor" }))
  const { member } = yield* Effect.orDie(acceptAs(invitation))
  const editor = (yield* Effect.orDie(apiKeys.create({ workspaceId: workspace.id, memberId: member.id }))).key
  const account = yield* Effect.orDie(SandboxConnect.connect({ workspaceId: workspace.id, platform: "example", username: `${tag}_ex` }))
  const send = (method: string, path: string, body?: unknown) =>
    request(`${base}/api/v1${path}`, {
      method,
      headers: { ...bearer(key.key), ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  const control = (kind: "comments" | "messages", body: Record<string, unknown>) =>
    request(`${base}/sandbox/example/_control/${kind}`, {
      method: "POST",
      headers: { ...bearer(key.key), "content-type": "application/json" },
      body: JSON.stringify({ username: `${tag}_ex`, ...body })
    })
  return { account, base, control, editor, key: key.key, send, workspace }
})

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString()

// A 1×1 PNG.
const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64")

/** A file server on this machine: the photo, a redirect to it, a page, and a photo declared far too large. */
const fileServer = Effect.acquireRelease(
  Effect.promise(() =>
    new Promise<{ readonly url: string; readonly close: () => void }>((resolve) => {
      const server = createServer((incoming, outgoing) => {
        if (incoming.url === "/photo.png") return outgoing.writeHead(200, { "content-type": "image/png" }).end(png)
        if (incoming.url === "/old") return outgoing.writeHead(302, { location: "/photo.png" }).end()
        if (incoming.url === "/huge.png") {
          // Declared over the photo limit: refused before anything is read, so nothing is sent.
          return outgoing.writeHead(200, { "content-type": "image/png", "content-length": String(31 * 1024 * 1024) }).flushHeaders()
        }
        outgoing.writeHead(404, { "content-type": "text/html" }).end("<p>gone</p>")
      })
      server.listen(0, "127.0.0.1", () => {
        const address = server.address() as { port: number }
        resolve({ url: `http://127.0.0.1:${address.port}`, close: () => server.close() })
      })
    })
  ),
  (server) => Effect.sync(() => server.close())
)

/** Polls the inbox until the REST list at `path` holds `count` items: the server's own rounds may be first. */
const stored = (send: (method: string, path: string) => Effect.Effect<any>, path: string, count: number) =>
  Effect.flatMap(Inbox.Inbox, (inbox) =>
    eventually(
      `${count} items at ${path}`,
      Effect.andThen(
        Effect.orDie(inbox.pollDue),
        Effect.map(send("GET", path), (answer): Array<any> | false => answer.body.data.length >= count && answer.body.data)
      ),
      { everyMs: 50 }
    ))

// The harness allows private targets (as webhook tests need), so the file server on 127.0.0.1 can be fetched.
layer(serverLayer({}, [examplePackage], undefined, { ...fastTuning, inboxPollEvery: Duration.zero }), { excludeTestServices: true })("mcp tools", (it) => {
  it.effect("lists every tool with its annotations; list_networks answers GET /api/v1/networks", () =>
    Effect.scoped(Effect.gen(function*() {
      const { base, key, send } = yield* setup
      const { client, tools } = yield* connected(base, key)
      const byName = new Map(tools.map((tool) => [tool.name, tool]))
      assert.lengthOf(tools, 18)
      for (const name of added) {
        const tool = byName.get(name)!
        assert.strictEqual(tool.outputSchema?.type, "object", name)
        for (const [field, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
          assert.isString((schema as { description?: string }).description, `${name}.${field}`)
        }
      }
      for (const name of ["list_networks", "list_inbox"]) {
        assert.deepInclude(byName.get(name)!.annotations, { readOnlyHint: true, idempotentHint: true, openWorldHint: false }, name)
      }
      for (const name of ["submit_post", "approve_post", "request_changes"]) {
        assert.deepInclude(byName.get(name)!.annotations, { readOnlyHint: false, destructiveHint: false, idempotentHint: true }, name)
      }
      assert.deepInclude(byName.get("retry_post")!.annotations, { readOnlyHint: false, idempotentHint: false, openWorldHint: false })
      for (const name of ["reply_to_comment", "send_message", "upload_media_from_url"]) {
        assert.deepInclude(byName.get(name)!.annotations, { readOnlyHint: false, idempotentHint: false, openWorldHint: true }, name)
      }
      assert.include(byName.get("approve_post")!.description, "owner or admin")
      assert.include(byName.get("reply_to_comment")!.description, "not sent again")

      assert.deepStrictEqual(success(yield* call(client, "list_networks")), (yield* send("GET", "/networks")).body)
    })))

  it.effect("submit_post, request_changes and approve_post move a post as REST does; an editor may not approve", () =>
    Effect.scoped(Effect.gen(function*() {
      const { account, base, editor, key, send } = yield* setup
      const asOwner = (yield* connected(base, key)).client
      const asEditor = (yield* connected(base, editor)).client
      assert.strictEqual((yield* send("PATCH", "/workspace", { approvalRequired: true })).status, 200)
      // With approval required, an editor's scheduled post waits for it.
      const draft = success(yield* call(asEditor, "create_post", { content: "For review", accountIds: [account.id], scheduledAt: inAnHour() })).data
      // A draft without a time cannot be submitted: REST's refusal, naming scheduledAt.
      const untimed = success(yield* call(asEditor, "create_post", { content: "When?", accountIds: [account.id], draft: true })).data
      const notReady = failure(yield* call(asEditor, "submit_post", { id: untimed.id }))
      assert.strictEqual(notReady.code, "invalid")
      assert.deepStrictEqual(notReady, (yield* send("POST", `/posts/${untimed.id}/submit`)).body.error)

      assert.strictEqual(draft.status, "awaiting_approval")
      const forbidden = failure(yield* call(asEditor, "approve_post", { id: draft.id }))
      assert.strictEqual(forbidden.code, "forbidden")
      assert.include(forbidden.message, "approving needs an owner or admin")

      const noNote = failure(yield* call(asOwner, "request_changes", { id: draft.id }))
      assert.strictEqual(noNote.code, "invalid")
      assert.include(noNote.message, "note")
      const sentBack = success(yield* call(asOwner, "request_changes", { id: draft.id, note: "Shorter, please" }))
      assert.strictEqual(sentBack.data.status, "draft")
      assert.deepStrictEqual(sentBack, (yield* send("GET", `/posts/${draft.id}`)).body)

      const submitted = success(yield* call(asEditor, "submit_post", { id: draft.id }))
      assert.strictEqual(submitted.data.status, "awaiting_approval")
      assert.deepStrictEqual(submitted, (yield* send("GET", `/posts/${draft.id}`)).body)
      const again = failure(yield* call(asEditor, "submit_post", { id: draft.id }))
      assert.strictEqual(again.code, "conflict")

      const approved = success(yield* call(asOwner, "approve_post", { id: draft.id, note: "Good" }))
      assert.strictEqual(approved.data.status, "scheduled")
      assert.deepStrictEqual(approved, (yield* send("GET", `/posts/${draft.id}`)).body)
      const notAwaiting = failure(yield* call(asOwner, "approve_post", { id: draft.id }))
      assert.strictEqual(notAwaiting.code, "conflict")
      assert.strictEqual(failure(yield* call(asOwner, "approve_post", { id: "pst_0000000000000000000000" })).code, "not_found")
    })))

  it.effect("retry_post sends a failed post again; a scheduled one is refused as conflict", () =>
    Effect.scoped(Effect.gen(function*() {
      const { account, base, key, send } = yield* setup
      const { client } = yield* connected(base, key)
      const post = success(yield* call(client, "create_post", { content: "Will fail", accountIds: [account.id], scheduledAt: inAnHour() })).data
      const refused = failure(yield* call(client, "retry_post", { id: post.id }))
      assert.strictEqual(refused.code, "conflict")
      assert.strictEqual(refused.message, (yield* send("POST", `/posts/${post.id}/retry`)).body.error.message)
      // As if the network had refused it: failed, to be retried.
      const sql = yield* SqlClient.SqlClient
      yield* Effect.orDie(sql`UPDATE posts SET status = 'failed' WHERE id = ${post.id}`)
      yield* Effect.orDie(sql`UPDATE post_targets SET status = 'failed', error = 'no' WHERE post_id = ${post.id}`)
      const retried = success(yield* call(client, "retry_post", { id: post.id })).data
      assert.notStrictEqual(retried.status, "failed")
      assert.strictEqual(retried.targets[0].error, null)
    })))

  it.effect("list_inbox, reply_to_comment and send_message answer what the inbox's REST calls answer", () =>
    Effect.scoped(Effect.gen(function*() {
      const { base, control, key, send } = yield* setup
      const { client } = yield* connected(base, key)
      yield* control("comments", { author: "reader_1", text: "Lovely" })
      yield* control("messages", { author: "client_1", text: "Open Sunday?" })
      const [comment] = yield* stored(send, "/inbox/comments", 1)
      const [conversation] = yield* stored(send, "/inbox/conversations", 1)

      assert.deepStrictEqual(success(yield* call(client, "list_inbox", { kind: "comments" })), (yield* send("GET", "/inbox/comments")).body)
      assert.deepStrictEqual(
        success(yield* call(client, "list_inbox", { kind: "conversations", platform: "example", limit: 5 })),
        (yield* send("GET", "/inbox/conversations?platform=example&limit=5")).body
      )
      const reply = success(yield* call(client, "reply_to_comment", { commentId: comment.id, text: "Thank you" })).data
      assert.deepInclude(reply, { text: "Thank you", outgoing: true, reply: comment.id })
      const comments = (yield* send("GET", "/inbox/comments")).body.data
      assert.deepStrictEqual(comments.find((item: { id: string }) => item.id === reply.id), reply)

      const message = success(yield* call(client, "send_message", { conversationId: conversation.id, text: "Yes, 10 to 4" })).data
      assert.deepInclude(message, { text: "Yes, 10 to 4", outgoing: true, conversationId: conversation.id })
      const messages = success(yield* call(client, "list_inbox", { kind: "messages", conversationId: conversation.id }))
      assert.deepStrictEqual(messages, (yield* send("GET", `/inbox/conversations/${conversation.id}/messages`)).body)
      assert.include(messages.data.map((item: { id: string }) => item.id), message.id)

      const unknown = failure(yield* call(client, "reply_to_comment", { commentId: "cmt_0000000000000000000000", text: "Hi" }))
      assert.strictEqual(unknown.code, "not_found")
      const empty = failure(yield* call(client, "send_message", { conversationId: conversation.id, text: "" }))
      assert.strictEqual(empty.code, "invalid")
      const withoutConversation = failure(yield* call(client, "list_inbox", { kind: "messages" }))
      assert.strictEqual(withoutConversation.code, "invalid")
      assert.deepStrictEqual(withoutConversation.details?.map((detail) => detail.field), ["conversationId"])
      assert.strictEqual(failure(yield* call(client, "list_inbox", { kind: "comments", cursor: "nonsense" })).code, "invalid")
    })))

  it.effect("upload_media_from_url stores the file as a REST upload of the same bytes, after a redirect; too large is refused", () =>
    Effect.scoped(Effect.gen(function*() {
      const { base, key } = yield* setup
      const { client } = yield* connected(base, key)
      const files = yield* fileServer
      const uploaded = (yield* request(`${base}/api/v1/media`, {
        method: "POST",
        headers: { ...bearer(key), "content-type": "image/png" },
        body: new Uint8Array(png)
      })).body.data
      const { createdAt: _a, id: _b, previewUrl: _c, url: _d, ...rest } = uploaded
      for (const path of ["/photo.png", "/old"]) {
        const media = success(yield* call(client, "upload_media_from_url", { url: `${files.url}${path}`, alt: "A dot" })).data
        assert.match(media.id, /^med_/)
        assert.deepInclude(media, { ...rest, alt: "A dot", width: 1, height: 1, kind: "image" })
      }
      const huge = failure(yield* call(client, "upload_media_from_url", { url: `${files.url}/huge.png` }))
      assert.strictEqual(huge.code, "too_large")
      const missing = failure(yield* call(client, "upload_media_from_url", { url: `${files.url}/nothing.png` }))
      assert.strictEqual(missing.code, "invalid")
      assert.include(missing.message, "answered 404")
    })))
})

// As Herald runs outside development: private targets refused.
layer(serverLayer({ webhookAllowPrivate: false }), { excludeTestServices: true })("mcp media from a url, public only", (it) => {
  it.effect("upload_media_from_url refuses loopback, private and metadata addresses and http://, naming the rule", () =>
    Effect.scoped(Effect.gen(function*() {
      const { base, key } = yield* setup
      const { client } = yield* connected(base, key)
      for (
        const [url, why] of [
          ["https://127.0.0.1/photo.png", "a loopback address"],
          ["https://10.1.2.3/photo.png", "a private address"],
          ["https://169.254.169.254/latest", "a cloud metadata address"],
          ["https://[::1]/photo.png", "a loopback address"]
        ] as const
      ) {
        const refused = failure(yield* call(client, "upload_media_from_url", { url }))
        assert.strictEqual(refused.code, "invalid", url)
        assert.include(refused.message, why, url)
        assert.include(refused.message, "media is fetched only from public addresses", url)
        assert.deepStrictEqual(refused.details?.map((detail) => detail.field), ["url"])
      }
      const plain = failure(yield* call(client, "upload_media_from_url", { url: "http://example.com/photo.png" }))
      assert.include(plain.message, "media is fetched only over HTTPS")
      const notUrl = failure(yield* call(client, "upload_media_from_url", { url: "photo.png" }))
      assert.include(notUrl.message, "is not an absolute URL")
    })))
})
