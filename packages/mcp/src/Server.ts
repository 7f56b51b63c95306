import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"
import { ApiError } from "@herald/api"
import type { IdempotencyKeys } from "@herald/core"
import * as Idempotency from "./Idempotency.ts"
import type { Prompt } from "./Prompts.ts"
import type { Resource } from "./Resources.ts"
import type { Caller, Tool, ToolFailure } from "./Tool.ts"

/**
 * One MCP exchange over Streamable HTTP, stateless (architecture.md, "MCP"): a fresh SDK server and transport
 * per request, JSON answers, no session, so any Herald process answers any call. The promise-based SDK is
 * wrapped once, in internal/sdkServer.ts, which the first exchange imports: the SDK with zod and ajv costs a
 * server that serves no MCP about 20 MB resident (docs/decisions/0055-idle-memory.md). The tools themselves
 * are Effects.
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

export const successResult = ({ body, replayed }: Idempotency.Answered): CallToolResult =>
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

/** The MCP answer to one POST: a server and a transport made for it (no session id generator: stateless), closed once it is answered. */
export const answer = (exchange: Exchange): Effect.Effect<Response> =>
  Effect.flatMap(Effect.promise(() => import("./internal/sdkServer.ts")), (sdk) => sdk.answer(exchange))
