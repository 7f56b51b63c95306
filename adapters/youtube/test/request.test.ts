import { assert, describe, it } from "@effect/vitest"
import { PostVersion } from "@herald/adapter-kit"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import * as Request from "../src/internal/request.ts"

// Pure translation of a post into YouTube's upload metadata.

const video = new PostVersion.MediaItem({
  id: "med_video1",
  kind: "video",
  mimeType: "video/mp4",
  url: "https://herald.example/media/video1.mp4",
  bytes: 2048,
  width: 1920,
  height: 1080,
  durationMs: 60_000,
  alt: null
})

describe("YouTube request", () => {
  it("sends the title, the text as description, and public privacy", () => {
    const post = AdapterSuite.post({ text: "All about it", title: "My video", media: [video] })
    assert.deepStrictEqual(Request.metadata(post), {
      snippet: { title: "My video", description: "All about it" },
      status: { privacyStatus: "public" }
    })
    assert.strictEqual(Request.videoOf(post), video)
  })

  it("links the watch page, escaping the id", () => {
    assert.strictEqual(Request.permalink("https://www.youtube.com", "dQw4w9WgXcQ"), "https://www.youtube.com/watch?v=dQw4w9WgXcQ")
    assert.strictEqual(Request.permalink("https://www.youtube.com", "a&b"), "https://www.youtube.com/watch?v=a%26b")
  })

  it("recognises an upload by its title and description together", () => {
    const post = AdapterSuite.post({ text: "desc", title: "title", media: [video] })
    assert.isTrue(Request.matches(post, { title: "title", description: "desc" }))
    assert.isFalse(Request.matches(post, { title: "title", description: "other" }))
    assert.isFalse(Request.matches(post, { title: "other", description: "desc" }))
  })
})
