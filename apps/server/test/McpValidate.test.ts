import { assert, layer } from "@effect/vitest"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"
import * as Packages from "../src/Packages.ts"
import { serverLayer } from "./harness.ts"
import { call, connect } from "./mcpClient.ts"
import { events, setup } from "./publishing.ts"

// validate_post through the SDK's client: create_post's arguments, answered as POST /api/v1/posts/validate
// answers the same body, saving nothing.

/** A successful call's body: the structured content, which the text repeats. */
const success = (result: CallToolResult) => {
  assert.notStrictEqual(result.isError, true, JSON.stringify(result))
  const first = result.content[0] as { type: string; text: string }
  assert.deepStrictEqual(JSON.parse(first.text), result.structuredContent)
  return result.structuredContent as any
}

const networks = new Set(["x", "bluesky"])

layer(serverLayer({}, Packages.all.filter((entry) => networks.has(entry.network))), { excludeTestServices: true })(
  "mcp validate_post",
  (it) => {
    it.effect("answers what REST's validate answers for the same body, valid or not, and saves nothing", () =>
      Effect.scoped(Effect.gen(function*() {
        const { accounts, base, key, send, workspace } = yield* setup(["x", "bluesky"])
        const before = yield* events(workspace.id)
        const client = yield* connect(base, key.key)
        // Listed first, so the SDK client checks every structured result against its tool's outputSchema.
        const { tools } = yield* Effect.promise(() => client.listTools())
        const tool = tools.find((entry) => entry.name === "validate_post")!
        assert.deepInclude(tool.annotations, { readOnlyHint: true, idempotentHint: true })
        assert.deepStrictEqual(tool.inputSchema, tools.find((entry) => entry.name === "create_post")!.inputSchema)

        const bodies: ReadonlyArray<Record<string, unknown>> = [
          { content: "Hi 👨‍👩‍👧", xThread: ["more"], accountIds: [accounts.x, accounts.bluesky], scheduledAt: "2099-01-01T09:00:00Z" },
          { content: "a".repeat(301), accountIds: [accounts.x, accounts.bluesky, "acc_nobody"] },
          { content: "to the queue", platformOptions: { bluesky: { thread: ["b".repeat(301)] } }, accountIds: [accounts.bluesky], queued: true }
        ]
        for (const body of bodies) {
          const rest = yield* send("POST", "/posts/validate", body)
          assert.strictEqual(rest.status, 200, rest.text)
          assert.deepStrictEqual(success(yield* call(client, "validate_post", body)), rest.body)
        }
        assert.isTrue((yield* send("POST", "/posts/validate", bodies[0])).body.data.valid)
        assert.isFalse((yield* send("POST", "/posts/validate", bodies[1])).body.data.valid)

        assert.deepStrictEqual((yield* send("GET", "/posts")).body.data, [])
        assert.deepStrictEqual(yield* events(workspace.id), before)
      })))

    it.effect("arguments that do not fit create_post's schema are invalid, naming the field", () =>
      Effect.scoped(Effect.gen(function*() {
        const { accounts, base, key } = yield* setup(["x"])
        const client = yield* connect(base, key.key)
        const result = yield* call(client, "validate_post", { content: "hi", contnet: "typo", accountIds: [accounts.x], draft: true })
        assert.isTrue(result.isError, JSON.stringify(result))
        const error = JSON.parse((result.content[0] as { text: string }).text).error
        assert.strictEqual(error.code, "invalid")
        assert.deepStrictEqual(error.details, [{ field: "contnet", message: `Unknown field "contnet": not a field of this request` }])
      })))
  }
)
