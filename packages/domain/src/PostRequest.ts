import { Schema } from "effect"
import * as Bounded from "./Bounded.ts"
import type * as Post from "./Post.ts"

// A post as a client asks for it: the fields of `POST /api/v1/posts` and `PATCH /api/v1/posts/:id`, once.
// The API builds its request schemas from these (with the installed networks' fields), and core's
// `Posts.CreateInput` and `UpdateInput` are these types, so a field is named and typed in one place.

// Every field carries a description: they show in the OpenAPI document and in the MCP tools' input schemas.
const field = {
  content: Bounded.Text.annotate({
    description: "The text for every target, unless platformContent has an entry for the target's network. " +
      "May be empty only when every target has an override or its network takes a post of media alone"
  }),
  accountIds: Bounded.array(Bounded.Id, Bounded.counts.accounts, "accounts").annotate({
    description: "Ids of the workspace's accounts to post to (from the accounts list); at least one, no repeats"
  }),
  mediaIds: Bounded.array(Bounded.Id, Bounded.counts.media, "media").annotate({
    description: "Ids of uploaded media (images or videos), in the order they are shown"
  }),
  scheduledAt: Bounded.Word.annotate({
    description: "When to publish: an ISO 8601 time with a zone, e.g. 2026-12-01T09:00:00Z. " +
      "Not more than 60 s in the past (use publishNow)"
  }),
  publishNow: Schema.Boolean.annotate({ description: "true publishes the post at once" }),
  queued: Schema.Boolean.annotate({
    description: "true puts the post in the posting queue: it is scheduled at the earliest slot of the weekly schedule " +
      "(GET /api/v1/queue/schedule) that is free for every one of its accounts, and keeps it through other changes. " +
      "In a change, false takes a queued post out of the queue at the time it has; sending scheduledAt does too"
  }),
  draft: Schema.Boolean.annotate({ description: "true saves the post as a draft; nothing is published" }),
  platformContent: Bounded.record(Bounded.Word, Bounded.Text, Bounded.counts.entries).annotate({
    description: "Text per network, keyed by a network key from GET /api/v1/networks, replacing content for that " +
      "network's targets"
  }),
  firstComment: Schema.NullOr(Bounded.Text).annotate({
    description: "A comment Herald adds under the post once it is out (networks that allow it); null for none"
  })
}

// What a create and a change may both send, each optional.
const optionalFields = {
  content: Schema.optionalKey(field.content),
  mediaIds: Schema.optionalKey(field.mediaIds),
  scheduledAt: Schema.optionalKey(field.scheduledAt),
  queued: Schema.optionalKey(field.queued),
  platformContent: Schema.optionalKey(field.platformContent),
  firstComment: Schema.optionalKey(field.firstComment)
}

/** Each network's own options as a request sets them, keyed by network (`PostShape.Document` in core). */
export const OptionsDocument = Schema.Record(Schema.String, Schema.Record(Schema.String, Schema.Unknown))
export type OptionsDocument = typeof OptionsDocument.Type

export const createFields = {
  ...optionalFields,
  accountIds: field.accountIds,
  publishNow: Schema.optionalKey(field.publishNow),
  draft: Schema.optionalKey(field.draft)
}

export const updateFields = {
  ...optionalFields,
  accountIds: Schema.optionalKey(field.accountIds),
  draft: Schema.optionalKey(field.draft.annotate({
    description: "true takes the post back to draft; false with scheduledAt schedules a draft"
  }))
}

/** `POST /api/v1/posts`, decoded: the network-neutral fields and each network's options as a document. */
export const CreatePayload = Schema.Struct({ ...createFields, options: Schema.optionalKey(OptionsDocument) })
export type CreatePayload = typeof CreatePayload.Type

/** `PATCH /api/v1/posts/:id`, decoded. */
export const UpdatePayload = Schema.Struct({ ...updateFields, options: Schema.optionalKey(OptionsDocument) })
export type UpdatePayload = typeof UpdatePayload.Type

/** Fields of a post's wire form known only when the adapters are: each decodes and encodes without a service. */
export type WireFields = {
  readonly [name: string]: Schema.Top & { readonly DecodingServices: never; readonly EncodingServices: never }
}

/**
 * How the installed adapters' options sit in the wire forms of a post: the fields they add to a post
 * request and to the full post, and the moves between those flat forms and the options document. Core's
 * `PostShape` is one, made once from the adapters; the API's schemas, the MCP tools and the webhooks' `post`
 * all go through it.
 */
export interface WireShape {
  /** Each top-level option field (optional) and `platformOptions`, as a create or a patch may send them. */
  readonly requestFields: WireFields
  /** Each top-level option field and derived field, and `platformOptions`, as the full post shows them. */
  readonly postFields: WireFields
  /** A request's option fields as a document, and the rest of it. */
  readonly split: (payload: Readonly<Record<string, unknown>>) => {
    readonly neutral: Record<string, unknown>
    readonly options: OptionsDocument
  }
  /** The option fields a request would send for this document (the reverse of `split`). */
  readonly flatten: (options: OptionsDocument) => Record<string, unknown>
  /** The full post as clients read it: neutral fields with the option fields (defaults filled) in place. */
  readonly show: (post: Post.Post) => Record<string, unknown>
  /** The options document of a full post as clients read it (the reverse of `show`). */
  readonly join: (wire: Readonly<Record<string, unknown>>) => OptionsDocument
}
