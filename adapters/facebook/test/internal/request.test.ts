import { AdapterSuite } from "@herald/adapter-kit/testing"
import { assert, describe, it } from "@effect/vitest"
import * as Request from "../../src/internal/request.ts"

const base = "https://herald.example"
const item = (kind: "image" | "video", index: number) => ({
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

describe("request.plan", () => {
  it("sends text alone to the feed", () => {
    assert.deepStrictEqual(Request.plan(AdapterSuite.post({ text: "Hello" })), { _tag: "Text", feed: { message: "Hello" } })
  })

  it("uploads photos unpublished, then attaches them to one feed post in order", () => {
    const plan = Request.plan(AdapterSuite.post({ text: "Album", media: [item("image", 1), item("image", 2)] }))
    assert.deepStrictEqual(plan, {
      _tag: "Photos",
      message: "Album",
      photos: [
        { url: `${base}/media/image1.jpg`, published: "false" },
        { url: `${base}/media/image2.jpg`, published: "false" }
      ]
    })
    assert.deepStrictEqual(Request.feedWithPhotos("Album", ["11", "12"]), {
      attached_media: "[{\"media_fbid\":\"11\"},{\"media_fbid\":\"12\"}]",
      message: "Album"
    })
    assert.deepStrictEqual(Request.feedWithPhotos("", ["11"]), { attached_media: "[{\"media_fbid\":\"11\"}]" })
  })

  it("sends a video by URL with the text as its description", () => {
    assert.deepStrictEqual(Request.plan(AdapterSuite.post({ text: "Clip", media: [item("video", 1)] })), {
      _tag: "Video",
      video: { file_url: `${base}/media/video1.mp4`, description: "Clip" }
    })
    assert.deepStrictEqual(Request.plan(AdapterSuite.post({ media: [item("video", 1)] })), {
      _tag: "Video",
      video: { file_url: `${base}/media/video1.mp4` }
    })
  })
})

describe("request helpers", () => {
  it("round-trip handles and refuse others", () => {
    for (const tag of ["Video", "Comment", "Link"] as const) {
      assert.deepStrictEqual(Request.decodeHandle(Request.encodeHandle({ _tag: tag, id: "123_456" })), { _tag: tag, id: "123_456" })
    }
    assert.isUndefined(Request.decodeHandle("video:"))
    assert.isUndefined(Request.decodeHandle("link:1/2"))
    assert.isUndefined(Request.decodeHandle("container:123"))
  })

  it("make video paths full links and keep full links", () => {
    assert.strictEqual(Request.absoluteUrl("https://www.facebook.com", "/herald/videos/1/"), "https://www.facebook.com/herald/videos/1/")
    assert.strictEqual(Request.absoluteUrl("https://www.facebook.com", "https://www.facebook.com/1_2"), "https://www.facebook.com/1_2")
  })

  it("match messages as Facebook keeps them", () => {
    assert.isTrue(Request.sameMessage("Hello \n", "Hello"))
    assert.isFalse(Request.sameMessage(undefined, "Hello"))
  })
})
