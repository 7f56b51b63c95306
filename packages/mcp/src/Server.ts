import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js"
import { type CallToolResult, ErrorCode, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js"
import { Cause, Effect, Result, Schema } from "effect"
import * as z from "zod"
import { ApiError, SchemaProblems } from "@herald/api"
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
  "Images go up with upload_image first; their ids go in mediaIds. get_post shows how each target went."

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

const successResult = (body: Record<string, unknown>): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(body) }],
  structuredContent: body
})

export interface Exchange {
  /** The request as a Web request; its body already read into `body`. */
  readonly request: Request
  readonly body: unknown
  readonly tools: ReadonlyArray<Tool>
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

const makeServer = (exchange: Exchange) => {
  const server = new Server(serverInfo, { capabilities: { tools: { listChanged: false } }, instructions: exchange.instructions })
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: exchange.tools.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: tool.inputSchema,
      outputSchema: tool.outputSchema,
      annotations: tool.annotations
    }))
  }))
  registerUnchecked.call(server, AnyToolCall, (request) => {
    const params = decodeCallParams(request.params)
    if (Result.isFailure(params)) {
      const { message } = SchemaProblems.formatSchemaError("CallParams", params.failure)
      // The SDK answers a rejection's `code` and `message` as the JSON-RPC error (McpError would prefix its code).
      return Promise.reject(Object.assign(new Error(message), { code: ErrorCode.InvalidParams }))
    }
    return callTool(exchange, params.success)
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
  return exchange.run(tool.call(params.arguments, exchange.caller).pipe(
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
