import { AdapterSuite } from "@herald/adapter-kit/testing"
import { assert, describe, it } from "@effect/vitest"
import * as Request from "../../src/internal/request.ts"

const base = "https://herald.example"
const photo = (index: number) => fixture("image", index)
const fixture = (kind: "image" | "video", index: number) => ({
  id: `med_${kind}${index}`,
  kind,
  mimeType: kind === "image" ? "image/jpeg" : "video/mp4",
  url: `${base}/media/${kind}${index}.${kind === "image" ? "jpg" : "mp4"}`,
  bytes: 1000,
  width: 1080,
  height: 1080,
  durationMs: kind === "video" ? 10_000 : null,
  alt: null
})
const video = (index: number) => fixture("video", index)

describe("request.plan", () => {
  it("sends one photo as an image container with its caption", () => {
    const plan = Request.plan(AdapterSuite.post({ text: "Hello", media: [photo(1)] }))
    assert.deepStrictEqual(plan, { _tag: "Single", container: { image_url: `${base}/media/image1.jpg`, caption: "Hello" } })
  })

  it("sends one video as a reel shared to the feed", () => {
    const plan = Request.plan(AdapterSuite.post({ text: "Watch", media: [video(1)] }))
    assert.deepStrictEqual(plan, {
      _tag: "Single",
      container: { media_type: "REELS", video_url: `${base}/media/video1.mp4`, share_to_feed: "true", caption: "Watch" }
    })
  })

  it("leaves out an empty caption", () => {
    const plan = Request.plan(AdapterSuite.post({ media: [photo(1)] }))
    assert.deepStrictEqual(plan, { _tag: "Single", container: { image_url: `${base}/media/image1.jpg` } })
  })

  it("sends a story without its text", () => {
    const plan = Request.plan(AdapterSuite.post({ format: "story", text: "never shown", media: [video(1)] }))
    assert.deepStrictEqual(plan, { _tag: "Single", container: { media_type: "STORIES", video_url: `${base}/media/video1.mp4` } })
  })

  it("builds a mixed carousel: uncaptioned children, then a captioned parent in order", () => {
    const plan = Request.plan(AdapterSuite.post({ text: "Both", media: [photo(1), video(2)] }))
    assert.deepStrictEqual(plan, {
      _tag: "Carousel",
      caption: "Both",
      children: [
        { is_carousel_item: "true", image_url: `${base}/media/image1.jpg` },
        { is_carousel_item: "true", media_type: "VIDEO", video_url: `${base}/media/video2.mp4` }
      ]
    })
    assert.deepStrictEqual(Request.carouselParent("Both", ["11", "12"]), {
      media_type: "CAROUSEL",
      children: "11,12",
      caption: "Both"
    })
  })

  it("checks videos less often than photos", () => {
    assert.isAbove(
      Request.checkAfterMs(AdapterSuite.post({ media: [video(1)] })),
      Request.checkAfterMs(AdapterSuite.post({ media: [photo(1)] }))
    )
  })
})

describe("request handles", () => {
  it("round-trip and refuse what they did not make", () => {
    const children: Request.Handle = { _tag: "Children", ids: ["1", "2"] }
    const container: Request.Handle = { _tag: "Container", id: "3" }
    assert.deepStrictEqual(Request.decodeHandle(Request.encodeHandle(children)), children)
    assert.deepStrictEqual(Request.decodeHandle(Request.encodeHandle(container)), container)
    assert.isUndefined(Request.decodeHandle("container:1,2"))
    assert.isUndefined(Request.decodeHandle("something"))
    assert.isUndefined(Request.decodeHandle("children:"))
  })

  it("match captions as Instagram keeps them", () => {
    assert.isTrue(Request.sameCaption(" Hello\n", "Hello"))
    assert.isFalse(Request.sameCaption(undefined, "Hello"))
    assert.isFalse(Request.sameCaption("Hello!", "Hello"))
  })
})
