import { assert, describe, it } from "@effect/vitest"
import * as Atproto from "@atproto/api"
import { limits } from "../src/BlueskyLimits.ts"
import { blobRule } from "../src/internal/lexicon.ts"

/**
 * Bluesky's limits are the official lexicons' figures, read from the lexicons `@atproto/api` ships: a lexicon
 * that changes a bound (as images went from 1 MB to 2 MB) fails here until BlueskyLimits.ts follows it.
 */
const { lexicons } = Atproto
const media = limits.forms.post.media

/** A property of an object def, as the lexicon declares it. */
const property = (def: string, name: string) => lexicons.getDefOrThrow(def, ["object"]).properties[name]

describe("Bluesky limits, held to the lexicons", () => {
  it("text: app.bsky.feed.post's text maxGraphemes and maxLength (UTF-8 bytes)", () => {
    const text = lexicons.getDefOrThrow("app.bsky.feed.post", ["record"]).record.properties["text"]
    assert.strictEqual(text?.type, "string")
    const bounds = text?.type === "string" ? text : undefined
    assert.deepStrictEqual([limits.forms.post.text.max, limits.forms.post.text.maxBytes], [bounds?.maxGraphemes, bounds?.maxLength])
    assert.deepStrictEqual([limits.forms.post.text.max, limits.forms.post.text.maxBytes], [300, 3000])
    assert.strictEqual(limits.forms.post.thread.maxLength, bounds?.maxGraphemes)
  })

  it("photos: app.bsky.embed.images holds at most 4 images of at most the image blob's maxSize", () => {
    const images = property("app.bsky.embed.images", "images")
    assert.strictEqual(images?.type, "array")
    assert.deepStrictEqual([media.maxPhotos, media.maxItems], [4, 4])
    assert.strictEqual(media.maxPhotos, images?.type === "array" ? images.maxLength : undefined)
    const rule = blobRule(Atproto, "app.bsky.embed.images#image", "image")
    assert.deepStrictEqual(rule, { accept: ["image/*"], maxSize: media.maxPhotoBytes })
    assert.strictEqual(media.maxPhotoBytes, 2_000_000)
  })

  it("video: app.bsky.embed.video's blob maxSize, MP4 only", () => {
    const rule = blobRule(Atproto, "app.bsky.embed.video", "video")
    assert.deepStrictEqual(rule, { accept: media.videoTypes, maxSize: media.maxVideoBytes })
    assert.deepStrictEqual(media.videoTypes, ["video/mp4"])
    assert.strictEqual(media.maxVideoBytes, 300_000_000)
  })

  it("alt text: the lexicons bound neither an image's nor the video's, so Herald keeps the Bluesky app's 2,000", () => {
    for (const def of ["app.bsky.embed.images#image", "app.bsky.embed.video"]) {
      const alt = property(def, "alt")
      assert.strictEqual(alt?.type, "string", def)
      const bounds = alt?.type === "string" ? alt : undefined
      assert.deepStrictEqual([bounds?.maxLength, bounds?.maxGraphemes], [undefined, undefined], def)
    }
    assert.strictEqual(media.altText.max, 2_000)
  })
})
