import { assert, describe, it } from "@effect/vitest"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { PostVersion } from "@herald/adapter-kit"
import * as Request from "../src/internal/request.ts"

const item = (kind: "image" | "video", url: string) =>
  new PostVersion.MediaItem({
    id: `med_${url}`,
    kind,
    mimeType: kind === "video" ? "video/mp4" : "image/jpeg",
    url,
    bytes: 1,
    width: null,
    height: null,
    durationMs: null,
    alt: null
  })

describe("threads request", () => {
  it("makes a TEXT, IMAGE or VIDEO container for a single post, leaving out empty text", () => {
    assert.deepStrictEqual(Request.plan(AdapterSuite.post({ text: "hi" })), {
      _tag: "Single",
      container: { media_type: "TEXT", text: "hi" }
    })
    assert.deepStrictEqual(Request.plan(AdapterSuite.post({ text: "", media: [item("image", "https://m/1.jpg")] })), {
      _tag: "Single",
      container: { media_type: "IMAGE", image_url: "https://m/1.jpg" }
    })
    assert.deepStrictEqual(Request.plan(AdapterSuite.post({ text: "v", media: [item("video", "https://m/1.mp4")] })), {
      _tag: "Single",
      container: { media_type: "VIDEO", video_url: "https://m/1.mp4", text: "v" }
    })
  })

  it("makes carousel items first, then a CAROUSEL naming them with the text", () => {
    const post = AdapterSuite.post({ text: "two", media: [item("image", "https://m/1.jpg"), item("video", "https://m/2.mp4")] })
    assert.deepStrictEqual(Request.plan(post), {
      _tag: "Carousel",
      items: [
        { media_type: "IMAGE", image_url: "https://m/1.jpg", is_carousel_item: "true" },
        { media_type: "VIDEO", video_url: "https://m/2.mp4", is_carousel_item: "true" }
      ]
    })
    assert.deepStrictEqual(Request.carousel("two", ["1", "2"]), { media_type: "CAROUSEL", children: "1,2", text: "two" })
  })

  it("sends a first comment as a reply container", () => {
    assert.deepStrictEqual(Request.reply("nice", "42"), { media_type: "TEXT", text: "nice", reply_to_id: "42" })
    assert.isUndefined(Request.firstComment(AdapterSuite.post({ text: "a", firstComment: " " })))
  })

  it("round-trips publishing progress through the handle and refuses a foreign one", () => {
    const cases: ReadonlyArray<Request.Progress> = [
      { _tag: "Items", itemIds: ["1", "2"] },
      { _tag: "Post", containerId: "3" },
      { _tag: "Posted", postId: "6" },
      { _tag: "Comment", postId: "4", containerId: "5" }
    ]
    for (const progress of cases) assert.deepStrictEqual(Request.decodeProgress(Request.encodeProgress(progress)), progress)
    assert.isUndefined(Request.decodeProgress("video:1"))
    assert.isUndefined(Request.decodeProgress("post:"))
    assert.isUndefined(Request.decodeProgress("posted:"))
  })

  it("waits longer for videos than for photos", () => {
    assert.isAbove(
      Request.checkAfterMs(AdapterSuite.post({ media: [item("video", "https://m/1.mp4")] })),
      Request.checkAfterMs(AdapterSuite.post({ media: [item("image", "https://m/1.jpg")] }))
    )
  })
})
