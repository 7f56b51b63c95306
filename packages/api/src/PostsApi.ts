import { Schema, SchemaTransformation } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Bounded, Post, PostRequest } from "@herald/domain"
import { ConflictResponse, ForbiddenResponse, InvalidResponse, NotFoundResponse } from "./ApiError.ts"
import { cursor, Data, Page } from "./Envelope.ts"
import * as EmptyBody from "./internal/emptyBody.ts"
import * as PostValidation from "./PostValidation.ts"
import * as QueryInteger from "./internal/queryInteger.ts"

// The request's fields are the domain's (`PostRequest`), shared with core's `Posts` inputs.

/** `POST /api/v1/posts`, decoded: the network-neutral fields and each network's options as a document. */
export const CreatePayload = PostRequest.CreatePayload
export type CreatePayload = PostRequest.CreatePayload

/** `PATCH /api/v1/posts/:id`, decoded. */
export const UpdatePayload = PostRequest.UpdatePayload
export type UpdatePayload = PostRequest.UpdatePayload

export type OptionsDocument = PostRequest.OptionsDocument

/** What the installed adapters add to a post's wire forms: core's `PostShape` is one (`PostRequest.WireShape`). */
export type Shape = PostRequest.WireShape

/** The schemas of a post as the installed networks shape it: requests and the full post. */
export interface Schemas {
  /** `POST /api/v1/posts`: flat on the wire, unknown fields refused; decoded, the options as a document. */
  readonly create: Schema.Codec<CreatePayload, Record<string, unknown>>
  /** `PATCH /api/v1/posts/:id`: any create field but `publishNow`; only what is sent changes. */
  readonly update: Schema.Codec<UpdatePayload, Record<string, unknown>>
  /** The full post object: `GET /api/v1/posts/:id` and every webhook carry this form. */
  readonly post: Schema.Codec<Post.Post, Record<string, unknown>>
  /** The flat request fields, for the MCP tools that add their own (the post's id). */
  readonly updateFields: Schema.Struct.Fields
}

const payload = <T extends { readonly options?: OptionsDocument | undefined }>(
  wire: PostRequest.WireFields,
  decoded: Schema.Codec<T, T>,
  shape: Shape
) =>
  Schema.Struct(wire).pipe(Schema.decodeTo(
    decoded,
    SchemaTransformation.transform({
      decode: (flat) => {
        const { neutral, options } = shape.split(flat)
        // `decoded` checks what the split gives before it is the payload: the type is its claim.
        return { ...neutral, options } as T
      },
      encode: ({ options, ...neutral }) => ({ ...neutral, ...shape.flatten(options ?? {}) }) as never
    })
  ))

/** The post's wire fields in order: the adapters' fields and `platformOptions` follow `platformContent`. */
const postWireFields = (shape: Shape): PostRequest.WireFields => {
  const fields: Record<string, PostRequest.WireFields[string]> = {}
  for (const [name, schema] of Object.entries(Post.Post.fields)) {
    if (name === "options") continue
    fields[name] = schema
    if (name === "platformContent") Object.assign(fields, shape.postFields)
  }
  return fields
}

/** The post schemas for the installed networks' shape. */
export const schemas = (shape: Shape): Schemas => {
  const post = Schema.Struct(postWireFields(shape)).pipe(Schema.decodeTo(
    Schema.toType(Post.Post),
    SchemaTransformation.transform({
      decode: (wire) => {
        const neutral = Object.fromEntries(Object.keys(Post.Post.fields).flatMap((name) =>
          name === "options" ? [] : [[name, (wire as Record<string, unknown>)[name]]]
        ))
        // The constructor checks the fields picked out of the wire form: the type is its claim.
        return new Post.Post({ ...neutral, options: shape.join(wire) } as ConstructorParameters<typeof Post.Post>[0])
      },
      encode: (value) => shape.show(value) as never
    })
  )).annotate({ identifier: "Post" })
  return {
    create: payload({ ...PostRequest.createFields, ...shape.requestFields }, CreatePayload, shape),
    update: payload({ ...PostRequest.updateFields, ...shape.requestFields }, UpdatePayload, shape),
    post,
    updateFields: { ...PostRequest.updateFields, ...shape.requestFields }
  }
}

/** `POST /api/v1/posts/:id/approve`. */
export const Approve = Schema.Struct({
  note: Schema.optionalKey(Bounded.Note.annotate({ description: "A note for the author, carried by post.approved" }))
})

/** `POST /api/v1/posts/:id/request-changes`: the note says what to change. */
export const RequestChanges = Schema.Struct({
  note: Bounded.Note.check(Schema.isMinLength(1)).annotate({ description: "What to change, carried by post.changes_requested" })
})

/** One event of a post, as a webhook delivery's body carries it (`GET /api/v1/posts/:id/events`). */
export class PostEvent extends Schema.Class<PostEvent>("PostEvent")({
  id: Schema.String.annotate({ description: "The event's id, the one its webhook deliveries carry" }),
  event: Schema.String.annotate({ description: "post.created, post.scheduled, post.published, ... (see Webhooks)" }),
  createdAt: Schema.String.annotate({ description: "When it happened (ISO 8601, UTC)" }),
  data: Schema.Record(Schema.String, Schema.Unknown).annotate({
    description: "The event's data as its webhook carries it: postId, the post as it was then, and the event's own fields"
  })
}) {}

export class Deleted extends Schema.Class<Deleted>("Deleted")({ id: Schema.String, deleted: Schema.Literal(true) }) {}

/** The posts group for the installed networks' schemas (`schemas(shape)`). */
export const make = (schemas: Schemas) => HttpApiGroup.make("posts").add(
  HttpApiEndpoint.post("create", "/posts", {
    payload: schemas.create,
    success: Data(schemas.post),
    error: InvalidResponse
  }).annotate(OpenApi.Summary, "Create a post: a draft, scheduled for a time, or published now"),
  HttpApiEndpoint.post("validate", "/posts/validate", {
    payload: schemas.create,
    success: Data(PostValidation.Validation)
  }).annotate(OpenApi.Summary, "Check a create's body by create's rules without saving: its problems, each network's count and version")
    .annotate(OpenApi.Description, "Takes the body POST /api/v1/posts takes and answers 200 with every problem create would " +
      "answer for it (valid: false) or none (valid: true); nothing is saved and an Idempotency-Key is ignored. A body " +
      "that is not a post request is invalid (400), as for create. queued: true is checked without finding a slot."),
  HttpApiEndpoint.get("list", "/posts", {
    query: {
      from: Schema.optional(Bounded.Word.annotate({
        description: "Posts at or after this time (ISO 8601: a date, or a time with a zone): scheduledAt, or createdAt when unscheduled"
      })),
      to: Schema.optional(Bounded.Word.annotate({ description: "Posts before this time (ISO 8601: a date, or a time with a zone)" })),
      status: Schema.optional(Bounded.Line.annotate({
        description: "One status or a comma list: draft, awaiting_approval, scheduled, publishing, published, partial, failed"
      })),
      accountId: Schema.optional(Bounded.Id.annotate({
        description: "Only posts that go to this account (one of their targets)"
      })),
      limit: Schema.optional(QueryInteger.limit),
      cursor: Schema.optional(cursor)
    },
    success: Page(schemas.post),
    error: InvalidResponse
  }).annotate(OpenApi.Summary, "List posts by time (scheduled time, or creation when unscheduled), then id"),
  HttpApiEndpoint.get("get", "/posts/:id", {
    params: { id: Bounded.Id },
    success: Data(schemas.post),
    error: NotFoundResponse
  }).annotate(OpenApi.Summary, "One post with each target's status, link and error"),
  HttpApiEndpoint.get("events", "/posts/:id/events", {
    params: { id: Bounded.Id },
    success: Data(Schema.Array(PostEvent)),
    error: NotFoundResponse
  }).annotate(OpenApi.Summary, "The post's events in the order they happened (created, scheduled, published, ...), as webhooks carry them"),
  HttpApiEndpoint.patch("update", "/posts/:id", {
    params: { id: Bounded.Id },
    payload: schemas.update,
    success: Data(schemas.post),
    error: [InvalidResponse, NotFoundResponse, ConflictResponse]
  }).annotate(OpenApi.Summary, "Change a draft, awaiting-approval or scheduled post; only the fields sent change"),
  HttpApiEndpoint.post("retry", "/posts/:id/retry", {
    params: { id: Bounded.Id },
    success: Data(schemas.post),
    error: [NotFoundResponse, ConflictResponse]
  }).annotate(OpenApi.Summary, "Send the failed targets of a partial or failed post again"),
  HttpApiEndpoint.post("submit", "/posts/:id/submit", {
    params: { id: Bounded.Id },
    success: Data(schemas.post),
    error: [InvalidResponse, NotFoundResponse, ConflictResponse]
  }).annotate(OpenApi.Summary, "Submit a draft with a time for approval (post.submitted)"),
  HttpApiEndpoint.post("approve", "/posts/:id/approve", {
    params: { id: Bounded.Id },
    payload: EmptyBody.orEmpty(Approve),
    success: Data(schemas.post),
    error: [NotFoundResponse, ConflictResponse, ForbiddenResponse]
  }).annotate(OpenApi.Summary, "Approve a post awaiting approval: it is scheduled, or goes out now if its time has passed"),
  HttpApiEndpoint.post("requestChanges", "/posts/:id/request-changes", {
    params: { id: Bounded.Id },
    payload: RequestChanges,
    success: Data(schemas.post),
    error: [InvalidResponse, NotFoundResponse, ConflictResponse, ForbiddenResponse]
  }).annotate(OpenApi.Summary, "Send a post awaiting approval back to draft with a note"),
  HttpApiEndpoint.delete("remove", "/posts/:id", {
    params: { id: Bounded.Id },
    success: Data(Deleted),
    error: [NotFoundResponse, ConflictResponse]
  }).annotate(OpenApi.Summary, "Delete a post from Herald (not from the networks); refused while it is going out")
).annotateMerge(OpenApi.annotations({
  title: "Posts",
  description: "Create, schedule, change, approve and delete posts; each target network's status, link and error."
}))

export type PostsApi = ReturnType<typeof make>
