import { Schema } from "effect"
import { PostOptions } from "@herald/adapter-kit"

export const TikTokPrivacy = Schema.Literals(["PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "FOLLOWER_OF_CREATOR", "SELF_ONLY"])

/** TikTok settings (api-reference.md, "TikTok settings"); `{}` when none. */
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

/** TikTok's own post field, `tiktok`, a top-level field of the post; its settings reach `publish` as `settings`. */
export const options = PostOptions.make({
  placement: "top",
  fields: {
    tiktok: TikTokSettings.annotate({ description: "TikTok settings for the video; {} when none" })
  },
  defaults: { tiktok: {} },
  // TikTok refuses branded content that only the creator can see: said before the post is accepted.
  check: (values) =>
    values.tiktok.brandedContent === true && values.tiktok.privacy === "SELF_ONLY"
      ? [{ field: "tiktok.privacy", message: "tiktok: branded content cannot be private (SELF_ONLY)" }]
      : [],
  version: (values) => ({ settings: { ...values.tiktok } })
})
