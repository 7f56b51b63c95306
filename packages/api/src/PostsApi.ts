import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Post } from "@herald/domain"
import { ConflictResponse, InvalidResponse, NotFoundResponse } from "./ApiError.ts"
import { Data, Page } from "./Envelope.ts"

/** `POST /api/v1/posts` (reference, "POST /api/v1/posts"; product.md, "Posts"). Unknown fields are refused. */
export const CreatePost = Schema.Struct({
  content: Schema.optionalKey(Schema.String),
  accountIds: Schema.Array(Schema.String),
  mediaIds: Schema.optionalKey(Schema.Array(Schema.String)),
  scheduledAt: Schema.optionalKey(Schema.String),
  publishNow: Schema.optionalKey(Schema.Boolean),
  draft: Schema.optionalKey(Schema.Boolean),
  platformContent: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)),
  xThread: Schema.optionalKey(Schema.Array(Schema.String)),
  instagramFormat: Schema.optionalKey(Schema.Literals(["post", "story"])),
  tiktok: Schema.optionalKey(Post.TikTokSettings),
  firstComment: Schema.optionalKey(Schema.NullOr(Schema.String)),
  youtubeTitle: Schema.optionalKey(Schema.NullOr(Schema.String)),
  youtubeThumbnail: Schema.optionalKey(Schema.NullOr(Schema.String))
})

/** `PATCH /api/v1/posts/:id`: any create field but `publishNow`; only what is sent changes. */
export const UpdatePost = Schema.Struct({
  content: Schema.optionalKey(Schema.String),
  accountIds: Schema.optionalKey(Schema.Array(Schema.String)),
  mediaIds: Schema.optionalKey(Schema.Array(Schema.String)),
  scheduledAt: Schema.optionalKey(Schema.String),
  draft: Schema.optionalKey(Schema.Boolean),
  platformContent: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)),
  xThread: Schema.optionalKey(Schema.Array(Schema.String)),
  instagramFormat: Schema.optionalKey(Schema.Literals(["post", "story"])),
  tiktok: Schema.optionalKey(Post.TikTokSettings),
  firstComment: Schema.optionalKey(Schema.NullOr(Schema.String)),
  youtubeTitle: Schema.optionalKey(Schema.NullOr(Schema.String)),
  youtubeThumbnail: Schema.optionalKey(Schema.NullOr(Schema.String))
})

export class Deleted extends Schema.Class<Deleted>("Deleted")({ id: Schema.String, deleted: Schema.Literal(true) }) {}

export class PostsApi extends HttpApiGroup.make("posts").add(
  HttpApiEndpoint.post("create", "/posts", {
    payload: CreatePost,
    success: Data(Post.Post),
    error: InvalidResponse
  }).annotate(OpenApi.Summary, "Create a post: a draft, scheduled for a time, or published now"),
  HttpApiEndpoint.get("list", "/posts", {
    query: {
      from: Schema.optional(Schema.String),
      to: Schema.optional(Schema.String),
      status: Schema.optional(Schema.String),
      limit: Schema.optional(Schema.String),
      cursor: Schema.optional(Schema.String)
    },
    success: Page(Post.Post),
    error: InvalidResponse
  }).annotate(OpenApi.Summary, "List posts by time (scheduled time, or creation when unscheduled), then id"),
  HttpApiEndpoint.get("get", "/posts/:id", {
    params: { id: Schema.String },
    success: Data(Post.Post),
    error: NotFoundResponse
  }).annotate(OpenApi.Summary, "One post with each target's status, link and error"),
  HttpApiEndpoint.patch("update", "/posts/:id", {
    params: { id: Schema.String },
    payload: UpdatePost,
    success: Data(Post.Post),
    error: [InvalidResponse, NotFoundResponse, ConflictResponse]
  }).annotate(OpenApi.Summary, "Change a draft, awaiting-approval or scheduled post; only the fields sent change"),
  HttpApiEndpoint.post("retry", "/posts/:id/retry", {
    params: { id: Schema.String },
    success: Data(Post.Post),
    error: [NotFoundResponse, ConflictResponse]
  }).annotate(OpenApi.Summary, "Send the failed targets of a partial or failed post again"),
  HttpApiEndpoint.delete("remove", "/posts/:id", {
    params: { id: Schema.String },
    success: Data(Deleted),
    error: [NotFoundResponse, ConflictResponse]
  }).annotate(OpenApi.Summary, "Delete a post from Herald (not from the networks); refused while it is going out")
).annotateMerge(OpenApi.annotations({ title: "Posts" })) {}
