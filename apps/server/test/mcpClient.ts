import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"

/** An SDK client connected to `/api/mcp` with the key, closed with the test's scope. */
export const connect = (base: string, key: string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const client = new Client({ name: "herald-test", version: "1.0.0" })
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/api/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } }
      }))
      return client
    }),
    (client) => Effect.promise(() => client.close())
  )

/** One tool call, its result as the SDK gives it. */
export const call = (client: Client, name: string, args: Record<string, unknown> = {}) =>
  Effect.promise(() => client.callTool({ name, arguments: args }) as Promise<CallToolResult>)
