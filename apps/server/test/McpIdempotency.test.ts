import { assert, layer } from "@effect/vitest"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { backends } from "@herald/db/testing"
import * as Packages from "../src/Packages.ts"
import { serverLayer } from "./harness.ts"
import { call, connect } from "./mcpClient.ts"
import { setup } from "./publishing.ts"

// Idempotent tool writes (docs/mcp.md, "Idempotent writes"), through the SDK's client: a retried call makes
// one post, with a key or without, and a key is REST's Idempotency-Key, in the same store.

/** A successful call's body: the structured content, which the text repeats. */
const success = (result: CallToolResult) => {
  assert.notStrictEqual(result.isError, true, JSON.stringify(result))
  const first = result.content[0] as { type: string; text: string }
  assert.deepStrictEqual(JSON.parse(first.text), result.structuredContent)
  return result.structuredContent as any
}

/** A failed call's REST error, read from its text. */
const failure = (result: CallToolResult) => {
  assert.isTrue(result.isError, JSON.stringify(result))
  return JSON.parse((result.content[0] as { text: string }).text).error as { code: string; message: string; details?: unknown }
}

const replayed = (result: CallToolResult) => result._meta?.["herald/idempotentReplayed"] === true

const networks = new Set(["x"])

for (const backend of backends()) {
  layer(serverLayer({}, Packages.all.filter((entry) => networks.has(entry.network)), backend), { excludeTestServices: true })(`mcp idempotent writes on ${backend.name}`, (it) => {
    it.effect("the same create_post twice without a key makes one post and answers it twice, the second marked replayed", () =>
      Effect.scoped(Effect.gen(function*() {
        const { accounts, base, key, send } = yield* setup(["x"])
        const client = yield* connect(base, key.key)
        // Listed first, so the SDK client checks every structured result against its tool's outputSchema.
        yield* Effect.promise(() => client.listTools())
        const body = { content: "Said once", accountIds: [accounts.x], scheduledAt: "2099-03-01T09:00:00Z" }
        const first = yield* call(client, "create_post", body)
        assert.isFalse(replayed(first))
        // The same arguments in another order are the same call.
        const again = yield* call(client, "create_post", { scheduledAt: body.scheduledAt, accountIds: body.accountIds, content: body.content })
        assert.isTrue(replayed(again))
        assert.deepStrictEqual(success(again), success(first))
        assert.include((again.content[1] as { text: string }).text, "nothing was done twice")
        assert.lengthOf((yield* send("GET", "/posts")).body.data, 1)

        // Other arguments are another post.
        success(yield* call(client, "create_post", { ...body, content: "Said twice" }))
        assert.lengthOf((yield* send("GET", "/posts")).body.data, 2)
      })))

    it.effect("two identical calls at once make one post", () =>
      Effect.scoped(Effect.gen(function*() {
        const { accounts, base, key, send } = yield* setup(["x"])
        const client = yield* connect(base, key.key)
        const body = { content: "At once", accountIds: [accounts.x], draft: true }
        const [one, two] = yield* Effect.all([call(client, "create_post", body), call(client, "create_post", body)], {
          concurrency: 2
        })
        assert.strictEqual(success(one!).data.id, success(two!).data.id)
        assert.lengthOf((yield* send("GET", "/posts")).body.data, 1)
      })))

    it.effect("a derived key lasts 10 minutes: the same call after that makes a post again", () =>
      Effect.scoped(Effect.gen(function*() {
        const { accounts, base, key, send, workspace } = yield* setup(["x"])
        const client = yield* connect(base, key.key)
        const body = { content: "Every morning", accountIds: [accounts.x], draft: true }
        const first = success(yield* call(client, "create_post", body)).data
        const sql = yield* SqlClient.SqlClient
        yield* Effect.orDie(sql`UPDATE idempotency_keys SET created_at = created_at - interval '11 minutes'
          WHERE workspace_id = ${workspace.id}`)
        const second = yield* call(client, "create_post", body)
        assert.isFalse(replayed(second))
        assert.notStrictEqual(success(second).data.id, first.id)
        assert.lengthOf((yield* send("GET", "/posts")).body.data, 2)
      })))

    it.effect("with a key: a repeat answers the first result, other arguments are conflict, and the key is REST's", () =>
      Effect.scoped(Effect.gen(function*() {
        const { accounts, base, key, send } = yield* setup(["x"])
        const client = yield* connect(base, key.key)
        const body = { content: "Keyed", accountIds: [accounts.x], draft: true, idempotencyKey: "plan-week-1" }
        const first = success(yield* call(client, "create_post", body))
        const again = yield* call(client, "create_post", body)
        assert.isTrue(replayed(again))
        assert.deepStrictEqual(success(again), first)

        const refused = failure(yield* call(client, "create_post", { ...body, content: "Keyed, changed" }))
        assert.strictEqual(refused.code, "conflict")
        assert.strictEqual(refused.message, `idempotencyKey "plan-week-1" was used with other arguments (or another tool); use a new key for a new change`)
        // Another tool with the key is another call too.
        assert.strictEqual(failure(yield* call(client, "delete_post", { id: first.data.id, idempotencyKey: "plan-week-1" })).code, "conflict")
        // The store is REST's: the key sent as Idempotency-Key with another request is conflict there as well.
        const rest = yield* Effect.promise(() =>
          fetch(`${base}/api/v1/posts`, {
            method: "POST",
            headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json", "idempotency-key": "plan-week-1" },
            body: JSON.stringify({ content: "By REST", accountIds: [accounts.x], draft: true })
          })
        )
        assert.strictEqual(rest.status, 409)
        assert.lengthOf((yield* send("GET", "/posts")).body.data, 1)
        // Without a key, the same content is a new post: the key stood for the keyed call alone.
        const { idempotencyKey: _, ...unkeyed } = body
        assert.notStrictEqual(success(yield* call(client, "create_post", unkeyed)).data.id, first.data.id)
      })))

    it.effect("a refused call keeps no answer, so the corrected call may use its key", () =>
      Effect.scoped(Effect.gen(function*() {
        const { accounts, base, key, send } = yield* setup(["x"])
        const client = yield* connect(base, key.key)
        const body = { content: "a".repeat(281), accountIds: [accounts.x], draft: true, idempotencyKey: "fix-me" }
        assert.strictEqual(failure(yield* call(client, "create_post", body)).code, "invalid")
        const fixed = yield* call(client, "create_post", { ...body, content: "a".repeat(280) })
        assert.isFalse(replayed(fixed))
        assert.strictEqual(success(fixed).data.content, "a".repeat(280))
        assert.lengthOf((yield* send("GET", "/posts")).body.data, 1)
      })))

    it.effect("update_post and delete_post take a key: a retried delete answers deleted again rather than not_found", () =>
      Effect.scoped(Effect.gen(function*() {
        const { accounts, base, key, send } = yield* setup(["x"])
        const client = yield* connect(base, key.key)
        const post = success(yield* call(client, "create_post", { content: "To go", accountIds: [accounts.x], draft: true })).data
        const updated = success(yield* call(client, "update_post", { id: post.id, content: "Changed", idempotencyKey: "u1" }))
        assert.strictEqual(updated.data.content, "Changed")
        assert.deepStrictEqual(success(yield* call(client, "update_post", { id: post.id, content: "Changed", idempotencyKey: "u1" })), updated)

        const deleted = success(yield* call(client, "delete_post", { id: post.id, idempotencyKey: "d1" }))
        assert.deepStrictEqual(deleted.data, { id: post.id, deleted: true })
        const retried = yield* call(client, "delete_post", { id: post.id, idempotencyKey: "d1" })
        assert.isTrue(replayed(retried))
        assert.deepStrictEqual(success(retried), deleted)
        // Without a key a delete is not derived one: it is idempotent by itself, and says the post is gone.
        assert.strictEqual(failure(yield* call(client, "delete_post", { id: post.id })).code, "not_found")
        assert.lengthOf((yield* send("GET", "/posts")).body.data, 0)
      })))

    it.effect("the writes list idempotencyKey, validate_post takes and ignores it, reads refuse it; a bad key is invalid", () =>
      Effect.scoped(Effect.gen(function*() {
        const { accounts, base, key } = yield* setup(["x"])
        const client = yield* connect(base, key.key)
        const { tools } = yield* Effect.promise(() => client.listTools())
        for (const tool of tools) {
          const listed = Object.hasOwn(tool.inputSchema.properties ?? {}, "idempotencyKey")
          assert.strictEqual(listed, tool.annotations?.readOnlyHint !== true || tool.name === "validate_post", tool.name)
        }
        assert.deepInclude(tools.find((tool) => tool.name === "create_post")!.inputSchema.properties!.idempotencyKey, {
          type: "string",
          minLength: 1,
          maxLength: 255
        })

        const body = { content: "Checked first", accountIds: [accounts.x], draft: true, idempotencyKey: "checked" }
        assert.isTrue(success(yield* call(client, "validate_post", body)).data.valid)
        // The dry run did not use the key up.
        const created = yield* call(client, "create_post", body)
        assert.isFalse(replayed(created))
        success(created)

        const unknown = failure(yield* call(client, "list_posts", { idempotencyKey: "x" }))
        assert.strictEqual(unknown.code, "invalid")
        assert.include(unknown.message, "idempotencyKey")

        for (const bad of ["", "with space", "é", 42]) {
          const refused = failure(yield* call(client, "create_post", { ...body, idempotencyKey: bad }))
          assert.strictEqual(refused.code, "invalid")
          assert.deepStrictEqual(refused.details, [{ field: "idempotencyKey", message: "Expected 1 to 255 visible ASCII characters" }])
        }
      })))
  })
}
