import { Schema } from "effect"

/** Post statuses (product.md, "Posts"). */
export const PostStatus = Schema.Literals(["draft", "awaiting_approval", "scheduled", "publishing", "published", "partial", "failed"])
export type PostStatus = typeof PostStatus.Type

export const TargetStatus = Schema.Literals(["pending", "published", "failed"])
export type TargetStatus = typeof TargetStatus.Type

/** One account a post goes to, with its own delivery status (reference, "Target"). */
export class Target extends Schema.Class<Target>("Target")({
  accountId: Schema.String,
  platform: Schema.String,
  username: Schema.String,
  status: TargetStatus,
  url: Schema.NullOr(Schema.String),
  error: Schema.NullOr(Schema.String)
}) {}

/** An attached photo or video as a post shows it (reference, "Media"). */
export class PostMedia extends Schema.Class<PostMedia>("PostMedia")({
  id: Schema.String,
  kind: Schema.Literals(["image", "video"]),
  url: Schema.String,
  previewUrl: Schema.NullOr(Schema.String)
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
export class Post extends Schema.Class<Post>("Post")({
  id: Schema.String,
  status: PostStatus,
  content: Schema.String,
  platformContent: Schema.Record(Schema.String, Schema.String),
  xThread: Schema.Array(Schema.String),
  xThreadMedia: Schema.Array(Schema.Array(Schema.String)),
  instagramFormat: Schema.Literals(["post", "story"]),
  tiktok: TikTokSettings,
  firstComment: Schema.NullOr(Schema.String),
  youtubeTitle: Schema.NullOr(Schema.String),
  youtubeThumbnail: Schema.NullOr(Schema.String),
  queued: Schema.Boolean,
  scheduledAt: Schema.NullOr(Schema.String),
  publishedAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String,
  media: Schema.Array(PostMedia),
  targets: Schema.Array(Target)
}) {}
