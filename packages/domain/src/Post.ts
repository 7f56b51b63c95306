import { Schema } from "effect"
import { all as statuses } from "./PostStatus.ts"

/** Post statuses (product.md, "Posts"). */
export const PostStatus = Schema.Literals(statuses)
export type PostStatus = typeof PostStatus.Type

export const TargetStatus = Schema.Literals(["pending", "published", "failed"])
export type TargetStatus = typeof TargetStatus.Type

/** One account a post goes to, with its own delivery status (reference, "Target"). */
export class Target extends Schema.Class<Target>("Target")({
  accountId: Schema.String.annotate({ description: "The account the post goes to (from the accounts list)" }),
  platform: Schema.String.annotate({ description: "The account's network: a network key from GET /api/v1/networks" }),
  username: Schema.String.annotate({ description: "The account's name on its network" }),
  status: TargetStatus.annotate({ description: "pending until the network answers, then published or failed" }),
  url: Schema.NullOr(Schema.String).annotate({ description: "The post's link on the network once published; null before" }),
  error: Schema.NullOr(Schema.String).annotate({ description: "Why the network refused it, for a person to read; null unless failed" })
}) {}

/** An attached photo or video as a post shows it (reference, "Media"). */
export class PostMedia extends Schema.Class<PostMedia>("PostMedia")({
  id: Schema.String.annotate({ description: "The upload's id, as sent in mediaIds" }),
  kind: Schema.Literals(["image", "video"]).annotate({ description: "A photo or a video" }),
  url: Schema.String.annotate({ description: "The file under the server's public address, as the networks fetch it" }),
  previewUrl: Schema.NullOr(Schema.String).annotate({ description: "A JPEG at most 320 px on its longest side for photos; null for videos" }),
  alt: Schema.NullOr(Schema.String).annotate({
    description: "The media's alt text (set at upload or by PATCH /api/v1/media/:id), sent to the networks that take it; null when none"
  })
}) {}

/** Someone outside the workspace who reviews posts through review links (a client, a legal team). */
export class ReviewProfile extends Schema.Class<ReviewProfile>("ReviewProfile")({
  id: Schema.String,
  name: Schema.String,
  email: Schema.NullOr(Schema.String),
  createdAt: Schema.String
}) {}

/** A signed link that shows one post to one review profile, who may approve it or ask for changes. */
export class ReviewLink extends Schema.Class<ReviewLink>("ReviewLink")({
  url: Schema.String,
  postId: Schema.String,
  profileId: Schema.String,
  expiresAt: Schema.String
}) {}

/**
 * The full post, network-neutral: its options document holds each network's own fields. `GET
 * /api/v1/posts/:id` and every webhook carry its wire form, which core's `PostShape` makes from the
 * installed adapters.
 */
// Every field carries a description: they show in the OpenAPI document, its docs page and the MCP tools'
// output schemas.
export class Post extends Schema.Class<Post>("Post")({
  id: Schema.String.annotate({ description: "The post's id (pst_…)" }),
  status: PostStatus.annotate({
    description: "draft, awaiting_approval, scheduled, publishing, then published, partial (some targets failed) or failed"
  }),
  content: Schema.String.annotate({ description: "The text for every target without a platformContent entry for its network" }),
  platformContent: Schema.Record(Schema.String, Schema.String).annotate({
    description: "Text per network, keyed by a network key from GET /api/v1/networks, replacing content for that " +
      "network's targets; {} when none"
  }),
  firstComment: Schema.NullOr(Schema.String).annotate({
    description: "A comment added under the post once it is out (networks that allow it); null for none"
  }),
  /**
   * Each network's own post options as set, keyed by network and then by the adapter's field name; only
   * what was set is kept (the adapters' defaults fill the rest where the post is shown). The wire form of
   * the post (core's `PostShape`) spreads it into the adapters' fields and `platformOptions`.
   */
  options: Schema.Record(Schema.String, Schema.Record(Schema.String, Schema.Unknown)),
  queued: Schema.Boolean.annotate({
    description: "True while the post holds a slot of the posting queue (created or changed with queued: true): its " +
      "scheduledAt is that slot. Sending scheduledAt, draft: true or queued: false takes it out of the queue"
  }),
  scheduledAt: Schema.NullOr(Schema.String).annotate({
    description: "When it is to go out (ISO 8601, UTC, milliseconds); null for a draft without a time"
  }),
  publishedAt: Schema.NullOr(Schema.String).annotate({
    description: "When its first target was published (ISO 8601, UTC); null until then"
  }),
  createdAt: Schema.String.annotate({ description: "When it was created (ISO 8601, UTC)" }),
  media: Schema.Array(PostMedia).annotate({ description: "The attached photos and videos, in the order shown" }),
  targets: Schema.Array(Target).annotate({ description: "Each account the post goes to, with its own status, link and error" })
}) {}
