import { Schema } from "effect"

/** Post statuses (product.md, "Posts"). */
export const PostStatus = Schema.Literals(["draft", "awaiting_approval", "scheduled", "publishing", "published", "partial", "failed"])
export type PostStatus = typeof PostStatus.Type

export const TargetStatus = Schema.Literals(["pending", "published", "failed"])
export type TargetStatus = typeof TargetStatus.Type

/** One account a post goes to, with its own delivery status (reference, "Target"). */
export class Target extends Schema.Class<Target>("Target")({
  accountId: Schema.String.annotate({ description: "The account the post goes to (from the accounts list)" }),
  platform: Schema.String.annotate({ description: "The account's network: x, instagram, threads, tiktok, youtube, linkedin or facebook" }),
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
  previewUrl: Schema.NullOr(Schema.String).annotate({ description: "A JPEG at most 320 px on its longest side for photos; null for videos" })
}) {}

export const TikTokPrivacy = Schema.Literals(["PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "FOLLOWER_OF_CREATOR", "SELF_ONLY"])

/** TikTok settings (reference, "TikTok settings"); `{}` when none. */
export const TikTokSettings = Schema.Struct({
  privacy: Schema.optionalKey(TikTokPrivacy.annotate({
    description: "Who may watch: one of the privacy levels the creator's account offers (PUBLIC_TO_EVERYONE by default)"
  })),
  allowComments: Schema.optionalKey(Schema.Boolean.annotate({ description: "Viewers may comment" })),
  allowDuet: Schema.optionalKey(Schema.Boolean.annotate({ description: "Viewers may duet the video" })),
  allowStitch: Schema.optionalKey(Schema.Boolean.annotate({ description: "Viewers may stitch the video" })),
  yourBrand: Schema.optionalKey(Schema.Boolean.annotate({ description: "The video promotes the creator's own business" })),
  brandedContent: Schema.optionalKey(
    Schema.Boolean.annotate({ description: "The video is paid partnership content (cannot be SELF_ONLY)" })
  )
})
export type TikTokSettings = typeof TikTokSettings.Type

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

/** The full post object: `GET /api/v1/posts/:id` and every webhook carry this form. */
// Every field carries a description: they show in the OpenAPI document, its docs page and the MCP tools'
// output schemas.
export class Post extends Schema.Class<Post>("Post")({
  id: Schema.String.annotate({ description: "The post's id (pst_…)" }),
  status: PostStatus.annotate({
    description: "draft, awaiting_approval, scheduled, publishing, then published, partial (some targets failed) or failed"
  }),
  content: Schema.String.annotate({ description: "The text for every target without a platformContent entry for its network" }),
  platformContent: Schema.Record(Schema.String, Schema.String).annotate({
    description: "Text per network (x, instagram, ...) replacing content for that network's targets; {} when none"
  }),
  xThread: Schema.Array(Schema.String).annotate({
    description: "Follow-up posts (text only) that make the X version a thread, in order; [] when none"
  }),
  xThreadMedia: Schema.Array(Schema.Array(Schema.String)).annotate({
    description: "Media ids of each xThread follow-up, one list per entry in the same order. Follow-ups carry " +
      "text only, so every list is empty []"
  }),
  instagramFormat: Schema.Literals(["post", "story"]).annotate({ description: "Instagram: a feed post or a story" }),
  tiktok: TikTokSettings.annotate({ description: "TikTok settings for the video; {} when none" }),
  firstComment: Schema.NullOr(Schema.String).annotate({
    description: "A comment added under the post once it is out (networks that allow it); null for none"
  }),
  youtubeTitle: Schema.NullOr(Schema.String).annotate({ description: "YouTube: the video's title; null when not set" }),
  youtubeThumbnail: Schema.NullOr(Schema.String).annotate({
    description: "YouTube: the media id of the thumbnail image; null for none"
  }),
  queued: Schema.Boolean.annotate({
    description: "Reserved for the posting queue (posts taking the account's next free slot), which Herald does not " +
      "have yet: always false"
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
