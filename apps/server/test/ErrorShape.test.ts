import { assert, layer } from "@effect/vitest"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"
import { ApiError } from "@herald/api"
import { ErrorShape, Posts } from "@herald/core"
import * as Packages from "../src/Packages.ts"
import { serverLayer } from "./harness.ts"
import { call, connect } from "./mcpClient.ts"
import { setup } from "./publishing.ts"

// One mapping of domain errors to the error shape: REST and MCP answer the same error with the code, status
// and message ErrorShape gives it (the CLI's side is apps/cli/test/ErrorShape.test.ts).

const toolError = (result: CallToolResult) => {
  assert.isTrue(result.isError, JSON.stringify(result))
  return JSON.parse((result.content[0] as { text: string }).text).error as { code: string; message: string; details?: unknown }
}

layer(serverLayer({}, Packages.all), { excludeTestServices: true })("ErrorShape", (it) => {
  it("knows the contract's codes, no more and no fewer", () => {
    assert.deepStrictEqual(Object.keys(ErrorShape.statusOf).sort(), [...ApiError.codes].sort())
  })

  it.effect("a missing post is the same not_found, with the same message, over REST and MCP", () =>
    Effect.scoped(Effect.gen(function*() {
      const { base, key, send } = yield* setup(["x"])
      const postId = "pst_0000000000000000000000"
      const expected = ErrorShape.of(new Posts.PostNotFound({ postId }))

      const rest = yield* send("GET", `/posts/${postId}`)
      assert.strictEqual(rest.status, expected.status)
      assert.deepStrictEqual(rest.body.error, { code: expected.code, message: expected.message })

      const client = yield* connect(base, key.key)
      assert.deepStrictEqual(toolError(yield* call(client, "get_post", { id: postId })), {
        code: expected.code,
        message: expected.message
      })
    })))

  it.effect("an invalid post is the same invalid, with its problems as details, over REST and MCP", () =>
    Effect.scoped(Effect.gen(function*() {
      const { accounts, base, key, send } = yield* setup(["x"])
      const body = { content: "a".repeat(281), accountIds: [accounts.x], draft: true }
      const rest = yield* send("POST", "/posts", body)
      assert.strictEqual(rest.status, ErrorShape.statusOf.invalid)
      assert.strictEqual(rest.body.error.code, "invalid")
      assert.isArray(rest.body.error.details)
      assert.isAbove(rest.body.error.details.length, 0)
      const client = yield* connect(base, key.key)
      assert.deepStrictEqual(toolError(yield* call(client, "create_post", body)), rest.body.error)
    })))
})
