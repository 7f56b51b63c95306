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
import { Cause, Effect, Result, Schema } from "effect"
import * as z from "zod"
import { ApiError, SchemaProblems } from "@herald/api"
import type { IdempotencyKeys } from "@herald/core"
import * as Idempotency from "./Idempotency.ts"
import type { Prompt } from "./Prompts.ts"
import type { Resource } from "./Resources.ts"
import { type Caller, type Tool, ToolFailure } from "./Tool.ts"

/**
 * One MCP exchange over Streamable HTTP, stateless (architecture.md, "MCP"): a fresh SDK server and transport
 * per request, JSON answers, no session, so any Herald process answers any call. The promise-based SDK is
 * wrapped here, once; the tools themselves are Effects.
 */

export const serverInfo = { name: "herald", title: "Herald", version: "1.0.0" }

/** What the server tells an assistant first, naming the installed networks. */
export const instructions = (networks: ReadonlyArray<{ readonly name: string }>) =>
  `Herald schedules and publishes social posts to ${listed(networks.map((network) => network.name))}. ` +
  "Start with list_accounts to find the account ids to post to. create_post takes exactly one of " +
  "scheduledAt, publishNow, queued or draft, and checks each network's limits (listed in its description) at once; " +
  "validate_post takes the same arguments and answers the problems without saving. " +
  "queued: true adds the post to the queue: it takes the earliest slot of the weekly posting schedule that is free " +
  "for every one of its accounts, and a later scheduledAt pins it. A queue without slots is refused; the schedule " +
  "is set with the REST API (PUT /api/v1/queue/schedule) or in the console; get_queue lists the upcoming slots " +
  "and the post in each. " +
  "Images go up with upload_image first; their ids go in mediaIds. get_post shows how each target went. " +
  "Every tool that writes takes an optional idempotencyKey, one per intended change: a retry with it answers the " +
  "first result instead of doing it twice (create_post without one treats the same arguments within 10 minutes as a retry). " +
  "The resources herald://networks (each network's limits as data) and herald://queue/schedule (the weekly slots " +
  "and the workspace's time zone) help plan posts."

const listed = (names: ReadonlyArray<string>) =>
  names.length <= 1 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`

/** A failure as a tool result: the REST error body as text, so the assistant sees its code, message and details. */
export const failureResult = (failure: ToolFailure): CallToolResult => ({
  content: [{
    type: "text",
    text: JSON.stringify(ApiError.body(failure.code, failure.message, failure.details === undefined ? {} : { details: failure.details }))
  }],
  isError: true
})

const successResult = ({ body, replayed }: Idempotency.Answered): CallToolResult =>
  replayed
    ? {
      // The first call's result again: said in words for the assistant, and as data (REST's Idempotent-Replayed).
      content: [
        { type: "text", text: JSON.stringify(body) },
        { type: "text", text: "This call was made before: this is its first result again, and nothing was done twice." }
      ],
      structuredContent: body,
      _meta: { "herald/idempotentReplayed": true }
    }
    : { content: [{ type: "text", text: JSON.stringify(body) }], structuredContent: body }

export interface Exchange {
  /** The request as a Web request; its body already read into `body`. */
  readonly request: Request
  readonly body: unknown
  readonly tools: ReadonlyArray<Tool>
  readonly resources: ReadonlyArray<Resource>
  readonly prompts: ReadonlyArray<Prompt>
  /** The store of REST's Idempotency-Key, which the tools' writes share. */
  readonly idempotencyKeys: IdempotencyKeys.IdempotencyKeys["Service"]
  /** The server's instructions (`instructions(networks)`). */
  readonly instructions: string
  readonly caller: Caller
  /** Set when the key is over its rate limit: a tool call answers it as its failure. */
  readonly refused?: ToolFailure | undefined
  /** Runs an Effect in the caller's context (its logger, its services). */
  readonly run: <A>(effect: Effect.Effect<A>) => Promise<A>
}

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

const CallParams = Schema.Struct({
  name: Schema.String,
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
    // Herald's own fault: logged in full, answered as `internal` like the REST API's 500.
    Effect.catchCause((cause) =>
      Effect.as(
        Effect.logError(`MCP tool ${tool.name} failed`, Cause.pretty(cause)),
        failureResult(new ToolFailure({ code: "internal", message: "Something went wrong on Herald's side; the error is logged" }))
      )
    )
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
