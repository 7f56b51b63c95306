import { assert, describe, it } from "@effect/vitest"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import * as Request from "../src/internal/request.ts"

describe("x request", () => {
  it("sends a media-only post without text, and a reply with the id it answers", () => {
    assert.deepStrictEqual(Request.tweetBody("", ["1", "2"]), { media: { media_ids: ["1", "2"] } })
    assert.deepStrictEqual(Request.tweetBody("hi", [], "99"), { text: "hi", reply: { in_reply_to_tweet_id: "99" } })
  })

  it("follows the thread with the first comment, and skips an empty comment", () => {
    const post = AdapterSuite.post({ text: "a", thread: ["b", "c"], firstComment: "d" })
    assert.deepStrictEqual(Request.followUps(post), ["b", "c", "d"])
    assert.deepStrictEqual(Request.followUps(AdapterSuite.post({ text: "a", firstComment: "  " })), [])
  })

  it("splits video bytes into segments X accepts", () => {
    const bytes = new Uint8Array(10)
    assert.deepStrictEqual(Request.segments(bytes, 4).map((segment) => segment.length), [4, 4, 2])
    assert.strictEqual(Request.segments(new Uint8Array(0)).length, 1)
  })

  it("round-trips publishing progress through the handle and refuses a foreign one", () => {
    const replies = { _tag: "Replies", rootId: "1", previousId: "2", next: 3 } as const
    assert.deepStrictEqual(Request.decodeProgress(Request.encodeProgress(replies)), replies)
    assert.deepStrictEqual(Request.decodeProgress("video:42"), { _tag: "Video", mediaId: "42" })
    assert.isUndefined(Request.decodeProgress("container:42"))
    assert.isUndefined(Request.decodeProgress("replies:1:2:-1"))
  })

  it("recognises a post X returned with t.co links and escaped characters", () => {
    assert.isTrue(Request.sameText("Read https://example.com/a & b", "Read https://t.co/abc123 &amp; b"))
    assert.isFalse(Request.sameText("Read this", "Read that"))
  })

  it("links a post at x.com/{username}/status/{id}", () => {
    assert.strictEqual(Request.permalink("https://x.com", "herald", "123"), "https://x.com/herald/status/123")
  })
})
