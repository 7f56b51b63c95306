import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { baseUrl, examplePackage, request, serverLayer, workspaceWithKey } from "./harness.ts"
import { connect } from "./mcpClient.ts"

// `/api/mcp` and the `Origin` header (MCP 2025-11-25, "Transports", security warning): a request a browser
// sends from another origin, as a page rebinding its own name to Herald's address would, is refused with 403
// before anything else; Herald's own origin and no Origin at all (every MCP client outside a browser) pass.

const initialize = JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } }
})

const mcp = (base: string, headers: Record<string, string>) =>
  request(`${base}/api/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: initialize
  })

layer(serverLayer({}, [examplePackage]), { excludeTestServices: true })("mcp Origin", (it) => {
  it.effect("a foreign Origin is refused with 403 in JSON-RPC's error form, key or not", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey("Origin")
      const port = new URL(base).port
      const foreign = [
        "http://evil.example",
        // A rebinding page: its own name, now pointing at Herald, on Herald's port.
        `http://rebound.evil.example:${port}`,
        // The right host under another scheme or port is another origin.
        `https://localhost:${port}`,
        `http://localhost:${Number(port) + 1}`,
        // Sandboxed frames and files.
        "null"
      ]
      for (const origin of foreign) {
        for (const headers of [{ origin, authorization: `Bearer ${key.key}` }, { origin }]) {
          const answer = yield* mcp(base, headers)
          assert.strictEqual(answer.status, 403, `${origin}: ${answer.text}`)
          assert.strictEqual(answer.body.jsonrpc, "2.0")
          assert.strictEqual(answer.body.error.code, -32000)
          assert.include(answer.body.error.message, "Origin")
          assert.isNull(answer.body.id)
          assert.isNull(answer.headers.get("www-authenticate"), "refused before the key is looked at")
        }
      }
    }))

  it.effect("Herald's own origin and no Origin are answered", () =>
    Effect.scoped(Effect.gen(function*() {
      const base = yield* baseUrl
      const { key } = yield* workspaceWithKey("Origin")
      // BASE_URL is unset in the tests: the service's own address is http://localhost:<port>.
      const own = new URL(base.replace("127.0.0.1", "localhost")).origin
      const withOwn = yield* mcp(base, { origin: own, authorization: `Bearer ${key.key}` })
      assert.strictEqual(withOwn.status, 200, withOwn.text)
      assert.strictEqual(withOwn.body.id, 1)
      const without = yield* mcp(base, { authorization: `Bearer ${key.key}` })
      assert.strictEqual(without.status, 200, without.text)
      // Without a key, the own origin still gets the key's refusal, not the Origin's.
      assert.strictEqual((yield* mcp(base, { origin: own })).status, 401)
      // The SDK's client sends no Origin.
      const client = yield* connect(base, key.key)
      assert.isAbove((yield* Effect.promise(() => client.listTools())).tools.length, 0)
    })))
})
