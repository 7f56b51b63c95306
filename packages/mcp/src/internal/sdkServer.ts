import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js"
import {
  type CallToolResult,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema
} from "@modelcontextprotocol/sdk/types.js"
import { Cause, Effect, Option, Result, Schema } from "effect"
import * as z from "zod"
import { SchemaProblems } from "@herald/api"
import { StorageFaults } from "@herald/core"
import { Bounded } from "@herald/domain"
import * as Idempotency from "../Idempotency.ts"
import { type Exchange, failureResult, serverInfo, successResult } from "../Server.ts"
import { ToolFailure } from "../Tool.ts"

// The MCP SDK's side of an exchange (Server.ts says what an exchange is), imported by the first one.

// The SDK checks a tools/call's params with zod and answers malformed ones as -32603 (internal error) with
// zod's issue list for a message. Herald registers its handler through Protocol's own registration (which the
// Server's validating override would otherwise wrap) with a schema that takes any params, and checks them
// itself: malformed params are JSON-RPC's -32602 Invalid params, in one readable sentence.
const AnyToolCall = z.looseObject({ method: z.literal("tools/call"), params: z.unknown().optional() })

const registerUnchecked = Protocol.prototype.setRequestHandler as (
  this: Server,
  schema: typeof AnyToolCall,
  handler: (request: z.infer<typeof AnyToolCall>) => CallToolResult | Promise<CallToolResult>
) => void

// The name is looked up among the tools and named back when none has it: bounded like any text a request carries.
const CallParams = Schema.Struct({
  name: Bounded.Word,
  arguments: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
})
const decodeCallParams = Schema.decodeUnknownResult(CallParams, { errors: "all" })

// A JSON-RPC error the SDK answers as is (McpError would prefix its code to the message).
const rpcFailure = (code: number, message: string) => Promise.reject(Object.assign(new Error(message), { code }))

// MCP's code for a resource that does not exist ("Resources", "Error Handling").
const resourceNotFound = -32002

const makeServer = (exchange: Exchange) => {
  const server = new Server(serverInfo, {
    capabilities: { tools: { listChanged: false }, resources: { listChanged: false }, prompts: { listChanged: false } },
    instructions: exchange.instructions
  })
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: exchange.tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: Idempotency.inputSchema(tool),
      outputSchema: tool.outputSchema,
      annotations: tool.annotations
    }))
  }))
  registerUnchecked.call(server, AnyToolCall, (request) => {
    const params = decodeCallParams(request.params)
    if (Result.isFailure(params)) {
      const { message } = SchemaProblems.formatSchemaError("CallParams", params.failure)
      return rpcFailure(ErrorCode.InvalidParams, message)
    }
    return callTool(exchange, params.success)
  })
  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: exchange.resources.map(({ description, mimeType, name, title, uri }) => ({ uri, name, title, description, mimeType }))
  }))
  server.setRequestHandler(ReadResourceRequestSchema, (request) => {
    const resource = exchange.resources.find((candidate) => candidate.uri === request.params.uri)
    if (resource === undefined) {
      return rpcFailure(
        resourceNotFound,
        `No resource is at ${request.params.uri}; the resources are ${exchange.resources.map((each) => each.uri).join(", ")}`
      )
    }
    return exchange.run(resource.read(exchange.caller)).then((text) => ({
      contents: [{ uri: resource.uri, mimeType: resource.mimeType, text }]
    }))
  })
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: exchange.prompts.map((prompt) => ({
      name: prompt.name,
      title: prompt.title,
      description: prompt.description,
      arguments: prompt.arguments.map((argument) => ({ ...argument }))
    }))
  }))
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    const prompt = exchange.prompts.find((candidate) => candidate.name === request.params.name)
    if (prompt === undefined) {
      return rpcFailure(
        ErrorCode.InvalidParams,
        `No prompt is named ${request.params.name}; the prompts are ${exchange.prompts.map((each) => each.name).join(", ")}`
      )
    }
    const args = request.params.arguments ?? {}
    const missing = prompt.arguments.filter((argument) => argument.required && (args[argument.name] ?? "").trim() === "")
    if (missing.length > 0) {
      return rpcFailure(ErrorCode.InvalidParams, `${prompt.name} needs ${missing.map((argument) => argument.name).join(", ")}`)
    }
    return {
      description: prompt.description,
      messages: [{ role: "user" as const, content: { type: "text" as const, text: prompt.text(args) } }]
    }
  })
  return server
}

const callTool = (exchange: Exchange, params: typeof CallParams.Type): CallToolResult | Promise<CallToolResult> => {
  if (exchange.refused !== undefined) return failureResult(exchange.refused)
  const tool = exchange.tools.find((candidate) => candidate.name === params.name)
  if (tool === undefined) {
    return failureResult(new ToolFailure({
      code: "not_found",
      message: `No tool is named ${params.name}; the tools are ${exchange.tools.map((each) => each.name).join(", ")}`
    }))
  }
  return exchange.run(Idempotency.call(exchange.idempotencyKeys, tool, params.arguments, exchange.caller).pipe(
    Effect.map(successResult),
    Effect.catchTag("ToolFailure", (failure) => Effect.succeed(failureResult(failure))),
    // The storage's fault (unreachable, full): the tool error REST answers for it, counted, not a stack trace each.
    // Herald's own fault: logged in full, answered as `internal` like the REST API's 500.
    Effect.catchCause((cause) => {
      const fault = StorageFaults.ofCause(cause)
      if (fault !== undefined) {
        const { code, message } = StorageFaults.shape(fault)
        return Effect.flatMap(Effect.serviceOption(StorageFaults.StorageFaults), (faults) =>
          Effect.as(
            Option.isSome(faults) ? faults.value.seen(fault) : Effect.void,
            failureResult(new ToolFailure({ code, message }))
          ))
      }
      return Effect.as(
        Effect.logError(`MCP tool ${tool.name} failed`, Cause.pretty(cause)),
        failureResult(new ToolFailure({ code: "internal", message: "Something went wrong on Herald's side; the error is logged" }))
      )
    })
  ))
}

/** The MCP answer to one POST: a server and a transport made for it (no session id generator: stateless), closed once it is answered. */
export const answer = (exchange: Exchange): Effect.Effect<Response> =>
  Effect.acquireUseRelease(
    Effect.promise(() => {
      const server = makeServer(exchange)
      const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true })
      return server.connect(transport).then(() => ({ server, transport }))
    }),
    ({ transport }) => Effect.promise(() => transport.handleRequest(exchange.request, { parsedBody: exchange.body })),
    ({ server }) => Effect.promise(() => server.close())
  )
