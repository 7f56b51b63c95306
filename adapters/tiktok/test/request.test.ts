import { assert, describe, it } from "@effect/vitest"
import { Result } from "effect"
import { PostVersion } from "@herald/adapter-kit"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import * as Request from "../src/internal/request.ts"

// Pure translation of a post into TikTok's init payloads.

const media = (kind: "image" | "video", index: number, durationMs: number | null = null) =>
  new PostVersion.MediaItem({
    id: `med_${kind}${index}`,
    kind,
    mimeType: kind === "video" ? "video/mp4" : "image/jpeg",
    url: `https://herald.example/media/${kind}${index}`,
    bytes: 1000,
    width: 1080,
    height: 1920,
    durationMs,
    alt: null
  })

const creator = (overrides: Partial<Request.Creator> = {}): Request.Creator => ({
  privacyLevelOptions: ["PUBLIC_TO_EVERYONE", "MUTUAL_FOLLOW_FRIENDS", "FOLLOWER_OF_CREATOR", "SELF_ONLY"],
  commentDisabled: false,
  duetDisabled: false,
  stitchDisabled: false,
  maxVideoPostDurationSec: 600,
  ...overrides
})

const initOf = (post: ReturnType<typeof AdapterSuite.post>, who = creator()) => {
  const result = Request.init(post, who)
  assert.isTrue(Result.isSuccess(result), Result.isFailure(result) ? result.failure : "")
  return (result as Result.Success<Request.Init, string>).success
}

describe("TikTok request", () => {
  it("sends a video by URL, public by default, with every interaction allowed", () => {
    const init = initOf(AdapterSuite.post({ text: "caption #tag", media: [media("video", 1, 15_000)] }))
    assert.deepStrictEqual(init, {
      _tag: "Video",
      body: {
        post_info: {
          title: "caption #tag",
          privacy_level: "PUBLIC_TO_EVERYONE",
          disable_comment: false,
          disable_duet: false,
          disable_stitch: false,
          brand_content_toggle: false,
          brand_organic_toggle: false
        },
        source_info: { source: "PULL_FROM_URL", video_url: "https://herald.example/media/video1" }
      }
    })
  })

  it("defaults to the most public level the creator allows (an unaudited app gets SELF_ONLY)", () => {
    const post = AdapterSuite.post({ text: "x", media: [media("video", 1)] })
    const followers = initOf(post, creator({ privacyLevelOptions: ["SELF_ONLY", "MUTUAL_FOLLOW_FRIENDS", "FOLLOWER_OF_CREATOR"] }))
    assert.strictEqual(followers.body.post_info.privacy_level, "FOLLOWER_OF_CREATOR")
    const unaudited = initOf(post, creator({ privacyLevelOptions: ["SELF_ONLY"] }))
    assert.strictEqual(unaudited.body.post_info.privacy_level, "SELF_ONLY")
  })

  it("refuses a privacy level the creator does not offer, naming the ones it does", () => {
    const result = Request.init(
      AdapterSuite.post({ text: "x", media: [media("video", 1)], settings: { privacy: "PUBLIC_TO_EVERYONE" } }),
      creator({ privacyLevelOptions: ["SELF_ONLY"] })
    )
    assert.deepStrictEqual(result, Result.fail("privacy PUBLIC_TO_EVERYONE is not allowed for this account; it allows SELF_ONLY"))
  })

  it("refuses branded content that would be private, chosen or defaulted", () => {
    const chosen = Request.choosePrivacy({ privacy: "SELF_ONLY", brandedContent: true }, creator())
    assert.isTrue(Result.isFailure(chosen))
    const defaulted = Request.choosePrivacy({ brandedContent: true }, creator({ privacyLevelOptions: ["SELF_ONLY"] }))
    assert.isTrue(Result.isFailure(defaulted))
    assert.deepStrictEqual(Request.choosePrivacy({ brandedContent: true }, creator()), Result.succeed("PUBLIC_TO_EVERYONE"))
  })

  it("maps the allow switches and brand toggles, and keeps switches the creator turned off", () => {
    const init = initOf(
      AdapterSuite.post({
        text: "x",
        media: [media("video", 1)],
        settings: { allowComments: false, allowStitch: false, brandedContent: true, yourBrand: true }
      }),
      creator({ duetDisabled: true })
    )
    assert.include(init.body.post_info, {
      disable_comment: true,
      disable_duet: true,
      disable_stitch: true,
      brand_content_toggle: true,
      brand_organic_toggle: true
    })
  })

  it("sends photos in order, caption as description, without duet or stitch", () => {
    const init = initOf(
      AdapterSuite.post({ text: "album", media: [media("image", 1), media("image", 2)], settings: { allowDuet: false } })
    )
    assert.deepStrictEqual(init, {
      _tag: "Photo",
      body: {
        media_type: "PHOTO",
        post_mode: "DIRECT_POST",
        post_info: {
          privacy_level: "PUBLIC_TO_EVERYONE",
          disable_comment: false,
          brand_content_toggle: false,
          brand_organic_toggle: false,
          description: "album"
        },
        source_info: {
          source: "PULL_FROM_URL",
          photo_images: ["https://herald.example/media/image1", "https://herald.example/media/image2"],
          photo_cover_index: 0
        }
      }
    })
  })

  it("refuses a video longer than the creator may post", () => {
    const result = Request.init(
      AdapterSuite.post({ text: "x", media: [media("video", 1, 400_000)] }),
      creator({ maxVideoPostDurationSec: 300 })
    )
    assert.deepStrictEqual(result, Result.fail("the video is 400 s; this account may post at most 300 s"))
  })

  it("links videos, photos, and the profile when there is no public id", () => {
    assert.strictEqual(Request.permalink("https://www.tiktok.com", "ann", "video", "7"), "https://www.tiktok.com/@ann/video/7")
    assert.strictEqual(Request.permalink("https://www.tiktok.com", "ann", "photo", "7"), "https://www.tiktok.com/@ann/photo/7")
    assert.strictEqual(Request.permalink("https://www.tiktok.com", "ann", "video", undefined), "https://www.tiktok.com/@ann")
  })
})
