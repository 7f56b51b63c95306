import { Option, Result, Schema } from "effect"
import type { PostVersion } from "@herald/adapter-kit"

// A Herald post as TikTok's Direct Post payloads, with no I/O: the privacy level chosen against what the
// creator allows, the interaction switches, the branded-content toggles, and where TikTok pulls the media.
// https://developers.tiktok.com/doc/content-posting-api-reference-direct-post
// https://developers.tiktok.com/doc/content-posting-api-reference-photo-post

export const PrivacyLevel = Schema.Literals([
  "PUBLIC_TO_EVERYONE",
  "MUTUAL_FOLLOW_FRIENDS",
  "FOLLOWER_OF_CREATOR",
  "SELF_ONLY"
])
export type PrivacyLevel = typeof PrivacyLevel.Type

/** Most public first: the default is the first one the creator allows. */
const openness: ReadonlyArray<PrivacyLevel> = ["PUBLIC_TO_EVERYONE", "FOLLOWER_OF_CREATOR", "MUTUAL_FOLLOW_FRIENDS", "SELF_ONLY"]

/** Herald's `tiktok` settings (api-reference.md, "TikTok settings"), as the core hands them over. */
export const Settings = Schema.Struct({
  privacy: Schema.optionalKey(PrivacyLevel),
  allowComments: Schema.optionalKey(Schema.Boolean),
  allowDuet: Schema.optionalKey(Schema.Boolean),
  allowStitch: Schema.optionalKey(Schema.Boolean),
  yourBrand: Schema.optionalKey(Schema.Boolean),
  brandedContent: Schema.optionalKey(Schema.Boolean)
})
export type Settings = typeof Settings.Type

/** What `creator_info/query` says the account allows; posts must respect it. */
export interface Creator {
  readonly privacyLevelOptions: ReadonlyArray<string>
  readonly commentDisabled: boolean
  readonly duetDisabled: boolean
  readonly stitchDisabled: boolean
  /** The longest video the account may post, in seconds. */
  readonly maxVideoPostDurationSec: number | undefined
}

interface CommonPostInfo {
  readonly privacy_level: PrivacyLevel
  readonly disable_comment: boolean
  readonly brand_content_toggle: boolean
  readonly brand_organic_toggle: boolean
}

interface VideoInit {
  readonly post_info: CommonPostInfo & {
    readonly title: string
    readonly disable_duet: boolean
    readonly disable_stitch: boolean
  }
  readonly source_info: { readonly source: "PULL_FROM_URL"; readonly video_url: string }
}

interface PhotoInit {
  readonly media_type: "PHOTO"
  readonly post_mode: "DIRECT_POST"
  readonly post_info: CommonPostInfo & { readonly description: string }
  readonly source_info: {
    readonly source: "PULL_FROM_URL"
    readonly photo_images: ReadonlyArray<string>
    readonly photo_cover_index: number
  }
}

export type Init =
  | { readonly _tag: "Video"; readonly body: VideoInit }
  | { readonly _tag: "Photo"; readonly body: PhotoInit }

/** The settings of a post; unknown or ill-typed ones are ignored (the core validated them already). */
const settingsOf = (post: PostVersion.PostVersion): Settings =>
  Option.getOrElse(Schema.decodeUnknownOption(Settings)(post.settings, { onExcessProperty: "ignore" }), () => ({}))

/**
 * The privacy level to send. The creator's `privacy_level_options` are the only levels TikTok accepts
 * (unaudited apps get only SELF_ONLY). Without a choice, the post is as public as the account allows.
 * Branded content may not be private (TikTok's branded content policy).
 */
export const choosePrivacy = (settings: Settings, creator: Creator): Result.Result<PrivacyLevel, string> => {
  const allowed = openness.filter((level) => creator.privacyLevelOptions.includes(level))
  const chosen = settings.privacy ?? allowed[0]
  if (chosen === undefined) return Result.fail("the account offers no privacy level to post with")
  if (!allowed.includes(chosen)) {
    return Result.fail(`privacy ${chosen} is not allowed for this account; it allows ${allowed.join(", ")}`)
  }
  if (settings.brandedContent === true && chosen === "SELF_ONLY") {
    return Result.fail("branded content cannot be posted with privacy SELF_ONLY")
  }
  return Result.succeed(chosen)
}

/** The init call for a post: a video by URL, or photos by URL. */
export const init = (post: PostVersion.PostVersion, creator: Creator): Result.Result<Init, string> => {
  const settings = settingsOf(post)
  const video = post.media.find((item) => item.kind === "video")
  const maxSeconds = creator.maxVideoPostDurationSec
  if (video !== undefined && video.durationMs !== null && maxSeconds !== undefined && video.durationMs > maxSeconds * 1000) {
    return Result.fail(`the video is ${Math.round(video.durationMs / 1000)} s; this account may post at most ${maxSeconds} s`)
  }
  return Result.map(choosePrivacy(settings, creator), (privacy): Init => {
    const common: CommonPostInfo = {
      privacy_level: privacy,
      // A switch the creator turned off in the app stays off whatever the post asks.
      disable_comment: settings.allowComments === false || creator.commentDisabled,
      brand_content_toggle: settings.brandedContent === true,
      brand_organic_toggle: settings.yourBrand === true
    }
    if (video !== undefined) {
      return {
        _tag: "Video",
        body: {
          post_info: {
            ...common,
            title: post.text,
            disable_duet: settings.allowDuet === false || creator.duetDisabled,
            disable_stitch: settings.allowStitch === false || creator.stitchDisabled
          },
          source_info: { source: "PULL_FROM_URL", video_url: video.url }
        }
      }
    }
    // A photo post's `title` holds only 90 characters while its `description` holds 4,000, so the caption
    // goes in the description. Photos have no duet or stitch.
    return {
      _tag: "Photo",
      body: {
        media_type: "PHOTO",
        post_mode: "DIRECT_POST",
        post_info: { ...common, description: post.text },
        source_info: {
          source: "PULL_FROM_URL",
          photo_images: post.media.map((item) => item.url),
          photo_cover_index: 0
        }
      }
    }
  })
}

/**
 * The public link. Photo posts live under `/photo/`, videos under `/video/`; a post with no public id
 * (SELF_ONLY, or still in moderation) links to the profile.
 */
export const permalink = (
  webBaseUrl: string,
  username: string,
  kind: "video" | "photo",
  postId: string | undefined
): string =>
  postId === undefined ? `${webBaseUrl}/@${username}` : `${webBaseUrl}/@${username}/${kind}/${postId}`
