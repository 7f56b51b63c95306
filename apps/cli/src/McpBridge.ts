import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js"
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js"
import { Effect, Redacted } from "effect"

/**
 * `herald mcp`: an MCP server on stdio for assistants that start a command and cannot set headers, passing
 * every message to a Herald's `/api/mcp` with the key in `Authorization` and every answer back. A message
 * Herald cannot be reached for is answered with a JSON-RPC error, so the assistant says why rather than
 * waiting. stdout carries MCP messages only; anything else goes to stderr. When stdin ends, the calls already
 * sent are still answered (or answered with an error), and the bridge exits once every answer is written.
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
    // What is under way: requests sent and not yet answered (by id), and sends and writes not yet done.
    // Once the input has ended, the bridge closes when none is left.
    const unanswered = new Set<string | number>()
    let working = 0
    let inputEnded = false
    const closeWhenDone = () => {
      if (inputEnded && unanswered.size === 0 && working === 0) closeAll()
    }
    const track = (work: Promise<unknown>) => {
      working++
      void work.finally(() => {
        working--
        closeWhenDone()
      })
    }
    const answer = (message: JSONRPCMessage) => {
      if ("id" in message && !("method" in message) && message.id !== undefined) unanswered.delete(message.id)
      track(stdio.send(message))
    }
    const endInput = () => {
      inputEnded = true
      closeWhenDone()
    }

    stdio.onmessage = (message: JSONRPCMessage) => {
      if ("method" in message && message.method === "initialize" && "id" in message) initializeId = message.id
      if ("id" in message && "method" in message) unanswered.add(message.id)
      track(http.send(message).catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error)
        process.stderr.write(`herald mcp: ${endpoint.href}: ${reason}\n`)
        if ("id" in message && "method" in message) {
          answer({
            jsonrpc: "2.0",
            id: message.id,
            error: { code: -32000, message: `Herald at ${endpoint.origin} could not be reached or refused the request: ${reason}` }
          })
        }
      }))
    }
    http.onmessage = (message: JSONRPCMessage) => {
      if (initializeId !== undefined && "id" in message && message.id === initializeId && "result" in message) {
        const version = (message.result as { protocolVersion?: unknown }).protocolVersion
        if (typeof version === "string") http.setProtocolVersion(version)
        initializeId = undefined
      }
      answer(message)
    }
    http.onerror = (error) => process.stderr.write(`herald mcp: ${error.message}\n`)
    stdio.onerror = (error) => process.stderr.write(`herald mcp: ${error.message}\n`)
    stdio.onclose = endInput
    process.stdin.once("end", endInput)

    void http.start().then(() => stdio.start())
    return Effect.sync(closeAll)
  })
