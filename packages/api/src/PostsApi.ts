import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Post } from "@herald/domain"
import { ConflictResponse, ForbiddenResponse, InvalidResponse, NotFoundResponse } from "./ApiError.ts"
import { cursor, Data, Page } from "./Envelope.ts"
import * as QueryInteger from "./internal/queryInteger.ts"

// Every field carries a description: they show in the OpenAPI document and in the MCP tools' input schemas.
const field = {
  content: Schema.String.annotate({
    description: "The text for every target, unless platformContent has an entry for the target's network. " +
      "May be empty only when every target has an override or its network takes a post of media alone"
  }),
  accountIds: Schema.Array(Schema.String).annotate({
    description: "Ids of the workspace's accounts to post to (from the accounts list); at least one, no repeats"
  }),
  mediaIds: Schema.Array(Schema.String).annotate({
    description: "Ids of uploaded media (images or videos), in the order they are shown"
  }),
  scheduledAt: Schema.String.annotate({
    description: "When to publish: an ISO 8601 time with a zone, e.g. 2026-12-01T09:00:00Z. " +
      "Not more than 60 s in the past (use publishNow)"
  }),
  publishNow: Schema.Boolean.annotate({ description: "true publishes the post at once" }),
  draft: Schema.Boolean.annotate({ description: "true saves the post as a draft; nothing is published" }),
  platformContent: Schema.Record(Schema.String, Schema.String).annotate({
    description: "Text per network, keyed by network (x, instagram, threads, tiktok, youtube, linkedin, facebook), " +
      "replacing content for that network's targets"
  }),
  xThread: Schema.Array(Schema.String).annotate({
    description: "Follow-up posts (text only) that turn the X version into a thread, in order"
  }),
  instagramFormat: Schema.Literals(["post", "story"]).annotate({
    description: "Instagram: a feed post (default) or a story"
  }),
  tiktok: Post.TikTokSettings.annotate({ description: "TikTok settings for the video" }),
  firstComment: Schema.NullOr(Schema.String).annotate({
    description: "A comment Herald adds under the post once it is out (networks that allow it); null for none"
  }),
  youtubeTitle: Schema.NullOr(Schema.String).annotate({
    description: "YouTube: the video's title (required for YouTube targets)"
  }),
  youtubeThumbnail: Schema.NullOr(Schema.String).annotate({
    description: "YouTube: the media id of an uploaded image to use as the thumbnail; null for none"
  })
}

// What a create and a change may both send, each optional.
const optionalFields = {
  content: Schema.optionalKey(field.content),
  mediaIds: Schema.optionalKey(field.mediaIds),
  scheduledAt: Schema.optionalKey(field.scheduledAt),
  platformContent: Schema.optionalKey(field.platformContent),
  xThread: Schema.optionalKey(field.xThread),
  instagramFormat: Schema.optionalKey(field.instagramFormat),
  tiktok: Schema.optionalKey(field.tiktok),
  firstComment: Schema.optionalKey(field.firstComment),
  youtubeTitle: Schema.optionalKey(field.youtubeTitle),
  youtubeThumbnail: Schema.optionalKey(field.youtubeThumbnail)
}

/** `POST /api/v1/posts` (reference, "POST /api/v1/posts"; product.md, "Posts"). Unknown fields are refused. */
export const CreatePost = Schema.Struct({
  ...optionalFields,
  accountIds: field.accountIds,
  publishNow: Schema.optionalKey(field.publishNow),
  draft: Schema.optionalKey(field.draft)
})

/** `PATCH /api/v1/posts/:id`: any create field but `publishNow`; only what is sent changes. */
export const UpdatePost = Schema.Struct({
  ...optionalFields,
  accountIds: Schema.optionalKey(field.accountIds),
  draft: Schema.optionalKey(field.draft.annotate({
    description: "true takes the post back to draft; false with scheduledAt schedules a draft"
  }))
})

/** `POST /api/v1/posts/:id/approve`. */
export const Approve = Schema.Struct({
  note: Schema.optionalKey(Schema.String.annotate({ description: "A note for the author, carried by post.approved" }))
})

/** `POST /api/v1/posts/:id/request-changes`: the note says what to change. */
export const RequestChanges = Schema.Struct({
  note: Schema.String.check(Schema.isMinLength(1)).annotate({ description: "What to change, carried by post.changes_requested" })
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
      from: Schema.optional(Schema.String.annotate({
        description: "Posts at or after this time (ISO 8601: a date, or a time with a zone): scheduledAt, or createdAt when unscheduled"
      })),
      to: Schema.optional(Schema.String.annotate({ description: "Posts before this time (ISO 8601: a date, or a time with a zone)" })),
      status: Schema.optional(Schema.String.annotate({
        description: "One status or a comma list: draft, awaiting_approval, scheduled, publishing, published, partial, failed"
      })),
      limit: Schema.optional(QueryInteger.limit),
      cursor: Schema.optional(cursor)
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
  HttpApiEndpoint.post("submit", "/posts/:id/submit", {
    params: { id: Schema.String },
    success: Data(Post.Post),
    error: [InvalidResponse, NotFoundResponse, ConflictResponse]
  }).annotate(OpenApi.Summary, "Submit a draft with a time for approval (post.submitted)"),
  HttpApiEndpoint.post("approve", "/posts/:id/approve", {
    params: { id: Schema.String },
    payload: Approve,
    success: Data(Post.Post),
    error: [NotFoundResponse, ConflictResponse, ForbiddenResponse]
  }).annotate(OpenApi.Summary, "Approve a post awaiting approval: it is scheduled, or goes out now if its time has passed"),
  HttpApiEndpoint.post("requestChanges", "/posts/:id/request-changes", {
    params: { id: Schema.String },
    payload: RequestChanges,
    success: Data(Post.Post),
    error: [InvalidResponse, NotFoundResponse, ConflictResponse, ForbiddenResponse]
  }).annotate(OpenApi.Summary, "Send a post awaiting approval back to draft with a note"),
  HttpApiEndpoint.delete("remove", "/posts/:id", {
    params: { id: Schema.String },
    success: Data(Deleted),
    error: [NotFoundResponse, ConflictResponse]
  }).annotate(OpenApi.Summary, "Delete a post from Herald (not from the networks); refused while it is going out")
).annotateMerge(OpenApi.annotations({
  title: "Posts",
  description: "Create, schedule, change, approve and delete posts; each target network's status, link and error."
})) {}
