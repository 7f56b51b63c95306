import { Effect, Schema, SchemaAST, SchemaIssue } from "effect"
import { ApiError, SchemaProblems } from "@herald/api"
import { ErrorShape, type Posts } from "@herald/core"
import { Bounded, Permissions, SafeText } from "@herald/domain"

/**
 * One MCP tool: what the server lists (schemas, description, annotations) and how a call runs: arguments
 * decoded strictly, the text rule applied, a viewer kept to reading, and the answer encoded as the REST body.
 */

/** A tool's failure: what the REST API would have answered, as a tool result with `isError`. */
export class ToolFailure extends Schema.TaggedError<ToolFailure>()("ToolFailure", {
  code: Schema.Literals(ApiError.codes),
  message: Schema.String,
  details: Schema.optionalKey(Schema.Unknown)
}) {}

/** Who calls: the key's workspace, and the address media links are made under. */
export interface Caller {
  readonly workspaceId: string
  readonly publicUrl: string
  /** The key's member and role, as for REST: an editor's posts may wait for approval, a viewer only reads. */
  readonly actor: Posts.Actor
}

/** A post's id, as the tools that act on one post take it. */
export const postId = Bounded.Id.annotate({ description: "The post's id (pst_…), as list_posts or create_post gave it" })

/** A JSON Schema object, as MCP's `inputSchema` and `outputSchema` take it. */
export type JsonSchemaObject = { readonly type: "object" } & Record<string, unknown>

export interface Annotations {
  readonly title: string
  readonly readOnlyHint: boolean
  readonly destructiveHint: boolean
  readonly idempotentHint: boolean
  /**
   * Whether the tool reaches outside Herald as it runs: an inbox answer goes to the network at once, a media URL
   * is fetched. Posts do not count: Herald publishes them later, by itself.
   */
  readonly openWorldHint: boolean
}

export interface Tool {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly inputSchema: JsonSchemaObject
  readonly outputSchema: JsonSchemaObject
  readonly annotations: Annotations
  /** Decodes the arguments, runs the tool and answers its body as JSON (the REST body). */
  call(args: unknown, caller: Caller): Effect.Effect<Record<string, unknown>, ToolFailure>
}

/** JSON Schema (draft 2020-12) of the JSON form of a schema, definitions inlined under `$defs`. */
export const jsonSchemaOf = (schema: Schema.Top, options: { readonly closed?: boolean } = {}): JsonSchemaObject => {
  const document = Schema.toJsonSchemaDocument(schema, { onExcessProperty: options.closed === true ? "error" : "ignore" })
  const definitions = Object.keys(document.definitions).length === 0 ? {} : { $defs: document.definitions }
  return { ...document.schema, ...definitions } as JsonSchemaObject
}

/** Whether the caller's role may call a tool: a read-only tool is a read, any other a change (as REST's methods). */
export const mayCall = (readOnly: boolean, actor: Pick<Posts.Actor, "role">) =>
  Permissions.can(actor.role, readOnly ? "read" : "change")

/** A schema that decodes and encodes without a service: every tool's input and output. */
type ServiceFree = Schema.Top & { readonly DecodingServices: never; readonly EncodingServices: never }

export const define = <I extends ServiceFree, O extends ServiceFree>(spec: {
  readonly name: string
  readonly title: string
  readonly description: string
  readonly input: I
  /** The input's JSON Schema when generating it would not say `type: object` (an empty struct takes any object). */
  readonly inputSchema?: JsonSchemaObject
  readonly output: O
  readonly readOnly?: boolean
  readonly destructive?: boolean
  readonly idempotent?: boolean
  readonly openWorld?: boolean
  readonly run: (input: I["Type"], caller: Caller) => Effect.Effect<O["Type"], ToolFailure, I["DecodingServices"]>
}): Tool => {
  const decodeInput = Schema.decodeUnknownEffect(spec.input)
  const decode = takesNothing(spec.input.ast)
    ? (args: unknown, options: SchemaAST.ParseOptions) => Effect.andThen(refuseEveryKey(spec.input.ast, args), decodeInput(args, options))
    : decodeInput
  const encode = Schema.encodeEffect(Schema.toCodecJson(spec.output))
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: spec.inputSchema ?? jsonSchemaOf(spec.input, { closed: true }),
    outputSchema: jsonSchemaOf(spec.output),
    annotations: {
      title: spec.title,
      readOnlyHint: spec.readOnly ?? false,
      destructiveHint: spec.destructive ?? false,
      idempotentHint: spec.idempotent ?? false,
      openWorldHint: spec.openWorld ?? false
    },
    call: (args, caller) =>
      (!mayCall(spec.readOnly === true, caller.actor)
        ? Effect.fail(new ToolFailure({ code: "forbidden", message: "This key acts for a viewer, who can read but not change anything" }))
        : Effect.andThen(
          checkText(args),
          decode(args ?? {}, { onExcessProperty: "error", errors: "all" }).pipe(
            Effect.mapError((error) => {
              const { details, message } = SchemaProblems.formatSchemaError("Arguments", error)
              return new ToolFailure({ code: "invalid", message, details })
            })
          )
        )).pipe(
        Effect.flatMap((input) => spec.run(input, caller) as Effect.Effect<O["Type"], ToolFailure>),
        Effect.flatMap((output) => Effect.orDie(encode(output))),
        Effect.map((body) => body as Record<string, unknown>)
      )
  }
}

// Effect's empty struct takes any value but null and undefined, whatever keys it has, so a tool without arguments
// would run on arguments it does not know; it refuses them as the other tools do, with the same issue.
const takesNothing = (ast: SchemaAST.AST) =>
  SchemaAST.isObjects(ast) && ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0

const refuseEveryKey = (ast: SchemaAST.AST, args: unknown): Effect.Effect<void, Schema.SchemaError> => {
  const record = typeof args === "object" && args !== null ? args as Record<string, unknown> : {}
  const [first, ...rest] = Object.keys(record).map((key) => new SchemaIssue.Pointer([key], new SchemaIssue.UnexpectedKey(ast, record[key])))
  return first === undefined ? Effect.void : Effect.fail(new Schema.SchemaError(new SchemaIssue.Composite(ast, [first, ...rest], args)))
}

// Herald's text rule (SafeText) for every tool's arguments, in one place, as the REST API applies it: a NUL or
// an unpaired surrogate anywhere in them is `invalid`, naming the field.
const checkText = (args: unknown): Effect.Effect<void, ToolFailure> => {
  const found = SafeText.find(args)
  if (found === undefined) return Effect.void
  const { details, message } = SchemaProblems.formatTextProblem("Arguments", found)
  return Effect.fail(new ToolFailure({ code: "invalid", message, details }))
}

/** Fails the call with the REST error `code`, the error's message and its details. */
export const fail = (code: ApiError.Code, error: { readonly message: string }, details?: unknown) =>
  Effect.fail(new ToolFailure(details === undefined ? { code, message: error.message } : { code, message: error.message, details }))

/** A domain error as the tool error REST would have answered for it (ErrorShape). */
export const domainFailure = (error: ErrorShape.Answerable) => {
  const { code, details, message } = ErrorShape.of(error)
  return fail(code, { message }, details)
}

/**
 * Every domain error an effect fails with (`ErrorShape.isDomainError`) as `domainFailure` renders it, so that a
 * tool lists no tags; what is left is the tool's own failures and the few it renders itself.
 */
export const domainFailures = <A, E, R>(
  self: Effect.Effect<A, E, R>
): Effect.Effect<A, ErrorShape.Unanswered<E> | ToolFailure, R> =>
  Effect.catch(self, (error: unknown) => ErrorShape.isDomainError(error) ? domainFailure(error) : Effect.fail(error)) as Effect.Effect<
    A,
    ErrorShape.Unanswered<E> | ToolFailure,
    R
  >
