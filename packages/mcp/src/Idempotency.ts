import { Duration, Effect, Schema } from "effect"
import { IdempotencyKeys } from "@herald/core"
import { createHash } from "node:crypto"
import { type Caller, type JsonSchemaObject, type Tool, ToolFailure } from "./Tool.ts"

/**
 * Tool writes under an idempotency key (docs/mcp.md, "Idempotent writes"; decision 0047), in the same store
 * and with the same semantics as REST's `Idempotency-Key`: a repeat of a call with its key answers the first
 * result, the key with other arguments is `conflict`, and a failure is not kept. A write that is not
 * idempotent by nature (create_post, an upload, a reply) called without a key gets one derived from the
 * tool, the member and the arguments, kept for a short while, so an assistant's retry never makes a second
 * post.
 */

/** How long a derived key stands: long enough for any retry, short enough that a post meant twice can be. */
export const derivedKeyLife = Duration.minutes(10)

const keyPattern = /^[\x21-\x7e]{1,255}$/

// A dry run saves nothing: it takes the key so create_post's arguments pass through unchanged, and ignores
// it, as REST's validate does.
const dryRuns = new Set(["validate_post"])

/** Whether the tool takes an `idempotencyKey`: every tool that writes, and the dry runs of one. */
export const takesKey = (tool: Tool) => !tool.annotations.readOnlyHint || dryRuns.has(tool.name)

// Writes a second call would not do again: while the first retry runs the post is not failed, and a retry
// after it failed again is meant, not a duplicate to swallow.
const guardedByStatus = new Set(["retry_post"])

/** Whether a call without a key gets one derived: a write that a second call would do again (a post, a reply). */
const derivesKey = (tool: Tool) =>
  !tool.annotations.readOnlyHint && !tool.annotations.idempotentHint && !guardedByStatus.has(tool.name)

// One description for a write and its dry run, so validate_post's schema stays create_post's own.
const keyProperty = (tool: Tool) => ({
  type: "string",
  minLength: 1,
  maxLength: 255,
  pattern: "^[\\x21-\\x7e]+$",
  description: "Any 1 to 255 visible characters, one per intended change: a repeat of the call with the same key " +
    "and arguments within 24 hours answers the first result without doing it again; the key with other arguments " +
    "is refused as conflict." +
    (derivesKey(tool) || dryRuns.has(tool.name)
      ? " Without one, the same arguments within 10 minutes are taken as a retry and answer the first result. " +
        "validate_post takes the key and ignores it, so the arguments checked can be the ones created"
      : "")
})

/** The tool's input schema as listed: with `idempotencyKey` when it takes one. */
export const inputSchema = (tool: Tool): JsonSchemaObject =>
  takesKey(tool)
    ? {
      ...tool.inputSchema,
      properties: { ...(tool.inputSchema.properties as Record<string, unknown> | undefined), idempotencyKey: keyProperty(tool) }
    }
    : tool.inputSchema

/** A tool's answer, and whether it is the stored answer of an earlier call. */
export interface Answered {
  readonly body: Record<string, unknown>
  readonly replayed: boolean
}

// The same arguments in another key order are the same call.
const canonical = (value: unknown): string =>
  Array.isArray(value)
    ? `[${value.map(canonical).join(",")}]`
    : typeof value === "object" && value !== null
    ? `{${
      Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
        .join(",")
    }}`
    : JSON.stringify(value)

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")

const StoredBody = Schema.fromJsonString(Schema.Record(Schema.String, Schema.Unknown))
const decodeStored = Schema.decodeUnknownEffect(StoredBody)

const conflict = (message: string) => new ToolFailure({ code: "conflict", message })

// The store's refusals in the tool's words: the argument is `idempotencyKey`, and a derived key is no key
// the assistant sent.
const refusal = (error: IdempotencyKeys.IdempotencyMismatch, key: string, derived: boolean) => {
  const named = derived ? "An identical call" : `The call first made with idempotencyKey "${key}"`
  switch (error.reason) {
    case "different_request":
      return conflict(`idempotencyKey "${key}" was used with other arguments (or another tool); use a new key for a new change`)
    case "in_progress":
      return conflict(`${named} is still running; try again in a moment`)
    case "abandoned":
      return conflict(
        `${named} never answered (Herald stopped while running it): whether it took effect is unknown; check ` +
          `(list_posts, say), then call again with a new idempotencyKey if it did not`
      )
  }
}

/**
 * Runs a tool call under its key: the key taken out of the arguments (the tool's own schema does not know
 * it), claimed in the workspace's store, and the call's answer kept for its repeats.
 */
export const call = (
  keys: IdempotencyKeys.IdempotencyKeys["Service"],
  tool: Tool,
  args: Readonly<Record<string, unknown>> | undefined,
  caller: Caller
): Effect.Effect<Answered, ToolFailure> =>
  Effect.gen(function*() {
    const { idempotencyKey: sent, ...rest } = args ?? {}
    const answered = (body: Record<string, unknown>): Answered => ({ body, replayed: false })
    if (!takesKey(tool)) return answered(yield* tool.call(args, caller))
    if (sent !== undefined && (typeof sent !== "string" || !keyPattern.test(sent))) {
      return yield* new ToolFailure({
        code: "invalid",
        message: "idempotencyKey must be 1 to 255 visible ASCII characters",
        details: [{ field: "idempotencyKey", message: "Expected 1 to 255 visible ASCII characters" }]
      })
    }
    const plain = args === undefined ? undefined : rest
    if (dryRuns.has(tool.name) || (sent === undefined && !derivesKey(tool))) return answered(yield* tool.call(plain, caller))
    const requestHash = sha256(`tools/call ${tool.name}\n${canonical(rest)}`)
    const derived = sent === undefined
    // A derived key is the call itself: the tool, who calls (the member, or the workspace for a key without one) and the arguments.
    const key = derived ? `mcp-call:${sha256(`${caller.actor.memberId ?? "workspace"}\n${requestHash}`)}` : sent
    const claim = yield* keys.claim(caller.workspaceId, key, requestHash, derived ? derivedKeyLife : undefined).pipe(
      Effect.catchTag("IdempotencyMismatch", (error) => Effect.fail(refusal(error, key, derived)))
    )
    if (claim._tag === "Replay") {
      return { body: yield* Effect.orDie(decodeStored(claim.answer.body)), replayed: true }
    }
    const release = Effect.orDie(keys.release(caller.workspaceId, key))
    const body = yield* tool.call(plain, caller).pipe(Effect.onError(() => release))
    yield* Effect.orDie(keys.complete(caller.workspaceId, key, { statusCode: 200, body: JSON.stringify(body), bodySha256: null }))
    return answered(body)
  })
