import { assert, describe, it } from "@effect/vitest"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import * as Request from "../src/internal/request.ts"

describe("request", () => {
  it("makes a public text post by the member, its text escaped", () => {
    const body = Request.post({
      personId: "abc123",
      post: AdapterSuite.post({ text: "Ship it (finally) #launch" }),
      mediaUrns: []
    })
    assert.deepStrictEqual(body, {
      author: "urn:li:person:abc123",
      commentary: "Ship it \\(finally\\) #launch",
      visibility: "PUBLIC",
      distribution: { feedDistribution: "MAIN_FEED", targetEntities: [], thirdPartyDistributionChannels: [] },
      lifecycleState: "PUBLISHED",
      isReshareDisabledByAuthor: false
    })
    assert.isFalse("content" in body)
  })

  it("shows one image or video as media, several images as multiImage", () => {
    assert.deepStrictEqual(Request.content(["urn:li:video:1"]), { media: { id: "urn:li:video:1" } })
    assert.deepStrictEqual(Request.content(["urn:li:image:1"]), { media: { id: "urn:li:image:1" } })
    assert.deepStrictEqual(Request.content(["urn:li:image:1", "urn:li:image:2"]), {
      multiImage: { images: [{ id: "urn:li:image:1" }, { id: "urn:li:image:2" }] }
    })
    assert.isUndefined(Request.content([]))
  })

  it("comments as the member, in little text too", () => {
    assert.deepStrictEqual(
      Request.comment({ personId: "abc123", postUrn: "urn:li:share:9", text: "Slides: example.com/a_b" }),
      { actor: "urn:li:person:abc123", object: "urn:li:share:9", message: { text: "Slides: example.com/a\\_b" } }
    )
  })

  it("replies under a comment, and reads comment URNs back", () => {
    const parentComment = Request.commentUrn("urn:li:share:9", "42")
    assert.strictEqual(parentComment, "urn:li:comment:(urn:li:share:9,42)")
    assert.deepStrictEqual(Request.parseCommentUrn(parentComment), { postUrn: "urn:li:share:9", commentId: "42" })
    assert.deepStrictEqual(Request.parseCommentUrn("urn:li:comment:(urn:li:activity:7,8)"), { postUrn: "urn:li:activity:7", commentId: "8" })
    assert.isUndefined(Request.parseCommentUrn("urn:li:share:9"))
    assert.deepStrictEqual(
      Request.reply({ personId: "abc123", postUrn: "urn:li:share:9", parentComment, text: "Thanks (all)" }),
      { actor: "urn:li:person:abc123", object: "urn:li:share:9", message: { text: "Thanks \\(all\\)" }, parentComment }
    )
    assert.strictEqual(Request.personIdOf("urn:li:person:abc123"), "abc123")
    assert.isUndefined(Request.personIdOf("urn:li:organization:5"))
  })

  it("finalizes a video with its parts' ETags in order", () => {
    assert.deepStrictEqual(
      Request.finalizeVideoUpload({ videoUrn: "urn:li:video:1", uploadToken: "token", partEtags: ["a", "b"] }),
      { finalizeUploadRequest: { video: "urn:li:video:1", uploadToken: "token", uploadedPartIds: ["a", "b"] } }
    )
    assert.deepStrictEqual(Request.initializeVideoUpload("abc123", 2_092), {
      initializeUploadRequest: {
        owner: "urn:li:person:abc123",
        fileSizeBytes: 2_092,
        uploadCaptions: false,
        uploadThumbnail: false
      }
    })
  })

  it("links to the post's page with the URN as LinkedIn writes it", () => {
    assert.strictEqual(
      Request.permalink("https://www.linkedin.com", "urn:li:share:7123"),
      "https://www.linkedin.com/feed/update/urn:li:share:7123/"
    )
  })
})
