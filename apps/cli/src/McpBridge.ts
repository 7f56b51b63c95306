import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js"
import { Effect, Redacted } from "effect"

/**
 * `herald mcp`: an MCP server on stdio for assistants that start a command and cannot set headers, passing
 * every message to a Herald's `/api/mcp` with the key in `Authorization` and every answer back. A message
 * Herald cannot be reached for is answered with a JSON-RPC error, so the assistant says why rather than
 * waiting. stdout carries MCP messages only; anything else goes to stderr.
 */
export const run = (options: { readonly url: URL; readonly key: Redacted.Redacted<string> }) =>
  Effect.callback<void>((resume) => {
    const endpoint = new URL("/api/mcp", options.url)
    const stdio = new StdioServerTransport()
    const http = new StreamableHTTPClientTransport(endpoint, {
      requestInit: { headers: { authorization: `Bearer ${Redacted.value(options.key)}` } }
    })
    // The initialize request's id, to learn the protocol version Herald chose from its answer.
    let initializeId: string | number | undefined
    let closed = false
    const closeAll = () => {
      if (closed) return
      closed = true
      void http.close().finally(() => void stdio.close().finally(() => resume(Effect.void)))
    }

    stdio.onmessage = (message: JSONRPCMessage) => {
      if ("method" in message && message.method === "initialize" && "id" in message) initializeId = message.id
      http.send(message).catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error)
        process.stderr.write(`herald mcp: ${endpoint.href}: ${reason}\n`)
        if ("id" in message && "method" in message) {
          void stdio.send({
            jsonrpc: "2.0",
            id: message.id,
            error: { code: -32000, message: `Herald at ${endpoint.origin} could not be reached or refused the request: ${reason}` }
          })
        }
      })
    }
    http.onmessage = (message: JSONRPCMessage) => {
      if (initializeId !== undefined && "id" in message && message.id === initializeId && "result" in message) {
        const version = (message.result as { protocolVersion?: unknown }).protocolVersion
        if (typeof version === "string") http.setProtocolVersion(version)
        initializeId = undefined
      }
      void stdio.send(message)
    }
    http.onerror = (error) => process.stderr.write(`herald mcp: ${error.message}\n`)
    stdio.onerror = (error) => process.stderr.write(`herald mcp: ${error.message}\n`)
    stdio.onclose = closeAll
    process.stdin.once("end", closeAll)

    void http.start().then(() => stdio.start())
    return Effect.sync(closeAll)
  })
