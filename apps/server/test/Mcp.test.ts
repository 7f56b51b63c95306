import { assert, layer } from "@effect/vitest"
import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"
import { ApiKeys, Team } from "@herald/core"
import * as Packages from "../src/Packages.ts"
import { acceptAs, baseUrl, request, serverLayer } from "./harness.ts"
import { roomInMinute } from "./limitWindows.ts"
import { call, connect } from "./mcpClient.ts"
import { settled, setup } from "./publishing.ts"

// The MCP server driven by the SDK's own client over Streamable HTTP, against the REST API's answers for
// the same resources: the tools call the same services and must answer the same bodies.

/** The headers a raw MCP request over HTTP sends with a key. */
const rawHeaders = (key: string) => ({
  authorization: `Bearer ${key}`,
  "content-type": "application/json",
  accept: "application/json, text/event-stream"
})

/** A failed call's REST error, read from its text. */
const failure = (result: CallToolResult) => {
  assert.isTrue(result.isError, JSON.stringify(result))
  const first = result.content[0]
  assert.strictEqual(first?.type, "text")
  return JSON.parse((first as { text: string }).text).error as { code: string; message: string; details?: unknown }
}

/** A successful call's body: the structured content, which the text repeats. */
const success = (result: CallToolResult) => {
  assert.notStrictEqual(result.isError, true, JSON.stringify(result))
  const first = result.content[0] as { type: string; text: string }
  assert.deepStrictEqual(JSON.parse(first.text), result.structuredContent)
  return result.structuredContent as any
}

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString()

// A 1×1 PNG.
const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="

layer(serverLayer({}, Packages.all), { excludeTestServices: true })("mcp", (it) => {
  it.effect("lists the eighteen tools with schemas, descriptions and annotations", () =>
    Effect.scoped(Effect.gen(function*() {
      const { base, key } = yield* setup([])
      const client = yield* connect(base, key.key)
      const { tools } = yield* Effect.promise(() => client.listTools())
      const byName = new Map(tools.map((tool) => [tool.name, tool]))
      assert.deepStrictEqual(
        [...byName.keys()].sort(),
        [
          "approve_post", "create_post", "delete_post", "get_post", "get_queue", "list_accounts", "list_inbox", "list_networks",
          "list_posts", "reply_to_comment", "request_changes", "retry_post", "send_message", "submit_post", "update_post",
          "upload_image", "upload_media_from_url", "validate_post"
        ]
      )
      for (const tool of tools) {
        assert.strictEqual(tool.inputSchema.type, "object", tool.name)
        assert.strictEqual(tool.outputSchema?.type, "object", tool.name)
        assert.isAbove(tool.description?.length ?? 0, 40, tool.name)
        // Every field says what it is.
        for (const [field, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
          assert.isString((schema as { description?: string }).description, `${tool.name}.${field}`)
        }
      }
      for (const name of ["list_accounts", "list_posts", "get_post", "get_queue", "validate_post"]) {
        assert.deepInclude(byName.get(name)!.annotations, { readOnlyHint: true, idempotentHint: true }, name)
      }
      assert.deepInclude(byName.get("delete_post")!.annotations, { readOnlyHint: false, destructiveHint: true, idempotentHint: true })
      assert.deepInclude(byName.get("create_post")!.annotations, { readOnlyHint: false, destructiveHint: false })
      assert.deepStrictEqual(byName.get("create_post")!.inputSchema.required, ["accountIds"])
      // The limits of every installed network, from the adapters' data, and the timing rule.
      const description = byName.get("create_post")!.description!
      for (const network of ["x", "instagram", "threads", "tiktok", "youtube", "linkedin", "facebook"]) {
        assert.include(description, `- ${network} (`)
      }
      assert.include(description, "Text: up to 280 characters, counted as X counts them")
      assert.include(description, "exactly one of scheduledAt")
    })))

  it.effect("list_posts.limit carries its range in the schema, and a call outside it is invalid, naming limit", () =>
    Effect.scoped(Effect.gen(function*() {
      const { base, key } = yield* setup([])
      const client = yield* connect(base, key.key)
      const { tools } = yield* Effect.promise(() => client.listTools())
      const limit = tools.find((tool) => tool.name === "list_posts")!.inputSchema.properties!.limit
      assert.deepInclude(limit, { type: "integer", minimum: 1, maximum: 100 })
      for (const outside of [0, 101]) {
        const refused = failure(yield* call(client, "list_posts", { limit: outside }))
        assert.strictEqual(refused.code, "invalid")
        assert.include(refused.message, "limit")
        assert.match(refused.message, /limit: Expected a value between 1 and 100/)
        assert.deepStrictEqual((refused.details as ReadonlyArray<{ field: string }>).map((detail) => detail.field), ["limit"])
      }
      assert.lengthOf(success(yield* call(client, "list_posts", { limit: 100 })).data, 0)
    })))

  it.effect("a tool without arguments refuses arguments it does not know, naming them, as the others do", () =>
    Effect.scoped(Effect.gen(function*() {
      const { base, key } = yield* setup([])
      const client = yield* connect(base, key.key)
      for (const name of ["list_accounts", "list_networks"]) {
        const refused = failure(yield* call(client, name, { workspace: "ws_other", limit: 5 }))
        assert.strictEqual(refused.code, "invalid", name)
        assert.strictEqual(
          refused.message,
          `Invalid arguments: Unknown field "workspace": not a field of this request; Unknown field "limit": not a field of this request`
        )
        assert.deepStrictEqual((refused.details as ReadonlyArray<{ field: string }>).map((detail) => detail.field), ["workspace", "limit"])
        assert.isArray(success(yield* call(client, name, {})).data)
      }
    })))

  it.effect("every tool answers what the REST API answers for the same resource", () =>
    Effect.scoped(Effect.gen(function*() {
      const { accounts, base, key, send } = yield* setup(["x", "linkedin"])
      const client = yield* connect(base, key.key)
      // Listed first, so the SDK client checks every structured result against its tool's outputSchema.
      yield* Effect.promise(() => client.listTools())

      const listed = success(yield* call(client, "list_accounts"))
      assert.deepStrictEqual(listed, (yield* send("GET", "/accounts")).body)
      assert.lengthOf(listed.data, 2)

      const created = success(yield* call(client, "create_post", {
        content: "From an assistant",
        accountIds: [accounts.x, accounts.linkedin],
        scheduledAt: inAnHour()
      }))
      assert.strictEqual(created.data.status, "scheduled")
      assert.deepStrictEqual(created, (yield* send("GET", `/posts/${created.data.id}`)).body)

      const got = success(yield* call(client, "get_post", { id: created.data.id }))
      assert.deepStrictEqual(got, (yield* send("GET", `/posts/${created.data.id}`)).body)

      const updated = success(yield* call(client, "update_post", { id: created.data.id, content: "Changed by an assistant" }))
      assert.strictEqual(updated.data.content, "Changed by an assistant")
      assert.deepStrictEqual(updated, (yield* send("GET", `/posts/${created.data.id}`)).body)

      const page = success(yield* call(client, "list_posts", { status: "scheduled", limit: 10 }))
      assert.deepStrictEqual(page, (yield* send("GET", "/posts?status=scheduled&limit=10")).body)
      assert.include(page.data.map((post: { id: string }) => post.id), created.data.id)

      const image = success(yield* call(client, "upload_image", { data: png, mimeType: "image/png" }))
      assert.match(image.data.id, /^med_/)
      // Stored as REST stores the same bytes.
      const uploaded = (yield* request(`${base}/api/v1/media`, {
        method: "POST",
        headers: { authorization: `Bearer ${key.key}`, "content-type": "image/png" },
        body: new Uint8Array(Buffer.from(png, "base64"))
      })).body.data
      const { createdAt: _a, id: _b, previewUrl: _c, url: _d, ...stored } = uploaded
      assert.deepInclude(image.data, { ...stored, width: 1, height: 1, kind: "image" })
      const withImage = success(yield* call(client, "update_post", { id: created.data.id, mediaIds: [image.data.id] }))
      assert.strictEqual(withImage.data.media[0].id, image.data.id)
      assert.strictEqual(withImage.data.media[0].url, image.data.url)

      const deleted = success(yield* call(client, "delete_post", { id: created.data.id }))
      assert.deepStrictEqual(deleted, { data: { id: created.data.id, deleted: true } })
      assert.strictEqual((yield* send("GET", `/posts/${created.data.id}`)).status, 404)
    })))

  it.effect("failures are tool errors with the REST code and message", () =>
    Effect.scoped(Effect.gen(function*() {
      const { accounts, base, get, key, send } = yield* setup(["x"])
      const client = yield* connect(base, key.key)

      // A per-network limit, in the words REST uses.
      const long = "a".repeat(281)
      const tooLong = failure(yield* call(client, "create_post", { content: long, accountIds: [accounts.x], draft: true }))
      const rest = (yield* send("POST", "/posts", { content: long, accountIds: [accounts.x], draft: true })).body.error
      assert.strictEqual(tooLong.code, "invalid")
      assert.strictEqual(tooLong.message, rest.message)
      assert.deepStrictEqual(tooLong.details, rest.details)
      assert.include(tooLong.message, "280")

      // The timing rule, and arguments that are not the tool's.
      assert.strictEqual(failure(yield* call(client, "create_post", { content: "Hi", accountIds: [accounts.x] })).code, "invalid")
      const unknownField = failure(yield* call(client, "get_post", { id: "pst_x", colour: "blue" }))
      assert.strictEqual(unknownField.code, "invalid")
      assert.include(unknownField.message, "colour")
      assert.include(failure(yield* call(client, "upload_image", { data: png, mimeType: "image/gif" })).message, "mimeType")
      assert.strictEqual(failure(yield* call(client, "upload_image", { data: "not base64!", mimeType: "image/png" })).code, "invalid")
      // Bytes that are not the type they claim.
      assert.strictEqual(
        failure(yield* call(client, "upload_image", { data: Buffer.from("GIF89a....").toString("base64"), mimeType: "image/png" })).code,
        "invalid"
      )

      // Not found.
      const missing = failure(yield* call(client, "get_post", { id: "pst_0000000000000000000000" }))
      assert.strictEqual(missing.code, "not_found")
      assert.strictEqual(missing.message, (yield* send("GET", "/posts/pst_0000000000000000000000")).body.error.message)
      assert.strictEqual(failure(yield* call(client, "delete_post", { id: "pst_0000000000000000000000" })).code, "not_found")

      // A post that is out can be neither changed nor deleted through MCP (REST deletes it from Herald).
      const out = (yield* send("POST", "/posts", { content: "Out", accountIds: [accounts.x], publishNow: true })).body.data
      assert.strictEqual((yield* settled(get, out.id)).status, "published")
      const notDeleted = failure(yield* call(client, "delete_post", { id: out.id }))
      assert.strictEqual(notDeleted.code, "conflict")
      assert.include(notDeleted.message, "is published; the delete_post tool acts only on draft or scheduled posts")
      assert.strictEqual(failure(yield* call(client, "update_post", { id: out.id, content: "Too late" })).code, "conflict")
      assert.strictEqual((yield* send("GET", `/posts/${out.id}`)).status, 200)

      // A tool that does not exist.
      assert.strictEqual(failure(yield* call(client, "publish_everything")).code, "not_found")
    })))

  it.effect("a missing or bad key is a 401 in the REST error shape, before the transport", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const initialize = JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } }
      })
      const headers = { "content-type": "application/json", accept: "application/json, text/event-stream" }
      const missing = yield* request(`${base}/api/mcp`, { method: "POST", headers, body: initialize })
      assert.strictEqual(missing.status, 401)
      assert.strictEqual(missing.body.error.code, "unauthorized")
      assert.match(missing.headers.get("www-authenticate") ?? "", /^Bearer/)
      const bad = yield* request(`${base}/api/mcp`, {
        method: "POST",
        headers: { ...headers, authorization: "Bearer hrld_nope" },
        body: initialize
      })
      assert.strictEqual(bad.status, 401)
      assert.strictEqual(bad.body.error.code, "unauthorized")
      assert.match(bad.headers.get("www-authenticate") ?? "", /error="invalid_token"/)
      // The SDK client fails to connect.
      const refused = yield* Effect.promise(() =>
        new Client({ name: "t", version: "1" }).connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`))).then(
          () => "connected",
          (error: Error) => error.message
        )
      )
      assert.notStrictEqual(refused, "connected")
    }))

  it.effect("a body that is not JSON, and one over the limit, are refused before the transport", () =>
    Effect.gen(function*() {
      const { base, key } = yield* setup([])
      const headers = rawHeaders(key.key)
      const broken = yield* request(`${base}/api/mcp`, { method: "POST", headers, body: "{not json" })
      assert.strictEqual(broken.status, 400)
      assert.strictEqual(broken.body.error.code, -32700)
      const huge = yield* request(`${base}/api/mcp`, { method: "POST", headers, body: "x".repeat(43 * 1024 * 1024) })
      assert.strictEqual(huge.status, 413)
      assert.strictEqual(huge.body.error.code, "too_large")
    }))

  it.effect("an empty JSON-RPC batch is one Invalid Request error (-32600), not an empty 202", () =>
    Effect.gen(function*() {
      const { base, key } = yield* setup([])
      const empty = yield* request(`${base}/api/mcp`, { method: "POST", headers: rawHeaders(key.key), body: "[]" })
      assert.strictEqual(empty.status, 400)
      assert.deepInclude(empty.body, { jsonrpc: "2.0", id: null })
      assert.strictEqual(empty.body.error.code, -32600)
      assert.match(empty.body.error.message, /^Invalid Request/)
    }))

  it.effect("malformed tools/call params are JSON-RPC Invalid params (-32602) in one readable sentence", () =>
    Effect.gen(function*() {
      const { base, key } = yield* setup([])
      const headers = rawHeaders(key.key)
      const cases: ReadonlyArray<readonly [params: unknown, field: string]> = [
        [{ name: 5 }, "name"],
        [{ name: "get_post", arguments: [1] }, "arguments"],
        [{ name: "get_post", arguments: "id" }, "arguments"],
        [undefined, "params"],
        [{}, "name"]
      ]
      for (const [params, field] of cases) {
        const body = { jsonrpc: "2.0", id: 7, method: "tools/call", ...(params === undefined ? {} : { params }) }
        const answer = yield* request(`${base}/api/mcp`, { method: "POST", headers, body: JSON.stringify(body) })
        const what = JSON.stringify(params)
        assert.strictEqual(answer.status, 200, answer.text)
        assert.strictEqual(answer.body.id, 7, what)
        assert.strictEqual(answer.body.error.code, -32602, `${what}: ${answer.text}`)
        assert.match(answer.body.error.message, /^Invalid params: /, what)
        assert.include(answer.body.error.message, field, what)
        assert.notInclude(answer.body.error.message, "\n", what)
        assert.notInclude(answer.body.error.message, "invalid_type", what)
      }
    }))

  it.effect("a NUL or lone surrogate in any tool argument is an invalid tool error naming the field, as over REST", () =>
    Effect.scoped(Effect.gen(function*() {
      const { accounts, base, key, send } = yield* setup(["x"])
      const client = yield* connect(base, key.key)
      const nested = failure(yield* call(client, "create_post", {
        content: "Hi",
        accountIds: [accounts.x],
        platformContent: { x: "bad\u0000" },
        draft: true
      }))
      assert.strictEqual(nested.code, "invalid")
      assert.deepStrictEqual((nested.details as Array<{ field: string }>).map((problem) => problem.field), ["platformContent.x"])
      const rest = (yield* send("POST", "/posts", { content: "Hi", accountIds: [accounts.x], platformContent: { x: "bad\u0000" }, draft: true }))
      assert.deepStrictEqual(rest.body.error.details, nested.details)
      for (const [tool, args] of [
        ["get_post", { id: "pst_\u0000" }],
        ["list_posts", { status: "\ud800" }],
        ["update_post", { id: "pst_x", content: "\udfff" }],
        ["delete_post", { id: "\u0000" }]
      ] as const) {
        const refused = failure(yield* call(client, tool, args))
        assert.strictEqual(refused.code, "invalid", tool)
        assert.match(refused.message, /NUL|unpaired surrogate/, tool)
      }
      assert.deepStrictEqual((yield* send("GET", "/posts")).body.data, [])
    })))

  it.effect("an image over 30 MB is too_large, refused before it is decoded or stored", () =>
    Effect.scoped(Effect.gen(function*() {
      const { base, key } = yield* setup([])
      const client = yield* connect(base, key.key)
      // 31 MB once decoded.
      const data = "A".repeat(Math.ceil(31 * 1024 * 1024 / 3) * 4)
      const refused = failure(yield* call(client, "upload_image", { data, mimeType: "image/png" }))
      assert.strictEqual(refused.code, "too_large")
      assert.include(refused.message, "30 MB")
    })))

  it.effect("a viewer's key reads through MCP but every tool that changes something is forbidden", () =>
    Effect.scoped(Effect.gen(function*() {
      const { accounts, base, workspace } = yield* setup(["x"])
      const team = yield* Team.Team
      const apiKeys = yield* ApiKeys.ApiKeys
      const viewerKey = yield* Effect.orDie(Effect.gen(function*() {
        const invitation = yield* team.invite(workspace.id, { email: `viewer-${Date.now()}@mcp.test`, role: "viewer" })
        const { member } = yield* acceptAs(invitation)
        return (yield* apiKeys.create({ workspaceId: workspace.id, memberId: member.id })).key
      }))
      const client = yield* connect(base, viewerKey)
      success(yield* call(client, "list_accounts"))
      const refused = failure(yield* call(client, "create_post", { content: "Hi", accountIds: [accounts.x], draft: true }))
      assert.strictEqual(refused.code, "forbidden")
      assert.strictEqual(failure(yield* call(client, "upload_image", { data: png, mimeType: "image/png" })).code, "forbidden")
      assert.deepStrictEqual(success(yield* call(client, "list_posts")).data, [], "nothing was made")
    })))

  it.effect("stateless: GET and DELETE are 405; each POST stands alone", () =>
    Effect.gen(function*() {
      const { base, key } = yield* setup([])
      for (const method of ["GET", "DELETE"]) {
        const answer = yield* request(`${base}/api/mcp`, {
          method,
          headers: { authorization: `Bearer ${key.key}`, accept: "application/json, text/event-stream" }
        })
        assert.strictEqual(answer.status, 405, method)
        assert.strictEqual(answer.headers.get("allow"), "POST")
      }
      // A tools/list with no initialize before it is answered: no session to find.
      const listed = yield* request(`${base}/api/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${key.key}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          "mcp-protocol-version": "2025-06-18"
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" })
      })
      assert.strictEqual(listed.status, 200, listed.text)
      // Counted against the key like a REST request, with the same headers.
      assert.match(listed.headers.get("ratelimit") ?? "", /^"default";r=\d+;t=\d+$/)
      assert.strictEqual(listed.body.id, 7)
      assert.lengthOf(listed.body.result.tools, 18)
    }))
})

layer(serverLayer({ rateLimitPerMinute: 4 }), { excludeTestServices: true })("mcp rate limit", (it) => {
  it.effect("the key's REST budget covers MCP: over it, a tool call is a rate_limited tool error", () =>
    Effect.scoped(Effect.gen(function*() {
      const { base, key } = yield* setup([])
      yield* roomInMinute
      // initialize, its notification, and two calls: the four requests of the minute.
      const client = yield* connect(base, key.key)
      success(yield* call(client, "list_accounts"))
      success(yield* call(client, "list_accounts"))
      const limited = failure(yield* call(client, "list_accounts"))
      assert.strictEqual(limited.code, "rate_limited")
      assert.match(limited.message, /try again in \d+ seconds/)
      // A REST request with the same key is over the same limit.
      assert.strictEqual((yield* request(`${base}/api/v1/accounts`, { headers: { authorization: `Bearer ${key.key}` } })).status, 429)
    })))
})
