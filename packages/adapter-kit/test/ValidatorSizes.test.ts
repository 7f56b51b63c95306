import { assert, describe, it } from "@effect/vitest"
import type { Limits } from "../src/Limits.ts"
import { MediaItem, PostVersion } from "../src/PostVersion.ts"
import { validate } from "../src/Validator.ts"

// The rules of sizes the validator learned for Bluesky and beside it: graphemes and UTF-8 bytes of text,
// file sizes per media kind, and alt text. The limits are written out as the networks publish them.
const bluesky: Limits = {
  forms: {
    post: {
      text: { max: 300, counter: "graphemes", maxBytes: 3_000 },
      media: {
        minItems: 0,
        maxItems: 4,
        maxPhotos: 4,
        maxVideos: 1,
        mixing: false,
        maxPhotoBytes: 1_000_000,
        maxVideoBytes: 100_000_000,
        altText: { max: 2_000 }
      },
      thread: { maxPosts: 25, maxLength: 300 },
      textOrMedia: true
    }
  }
}

/** A network that takes no alt text. */
const plain: Limits = {
  forms: { post: { text: { max: 500, counter: "characters" }, media: { minItems: 0, maxItems: 4, maxPhotos: 4, maxVideos: 1, mixing: false } } }
}

const item = (kind: "image" | "video", bytes: number, alt: string | null = null) =>
  new MediaItem({
    id: `med_${kind}${bytes}`,
    kind,
    mimeType: kind === "image" ? "image/jpeg" : "video/mp4",
    url: `https://media.herald.test/${bytes}`,
    bytes,
    width: 1000,
    height: 1000,
    durationMs: kind === "video" ? 10_000 : null,
    alt
  })

const post = (fields: Partial<ConstructorParameters<typeof PostVersion>[0]>) =>
  new PostVersion({ text: "", media: [], thread: [], format: "post", title: null, thumbnail: null, firstComment: null, settings: {}, ...fields })

const messages = (limits: Limits, version: PostVersion) => validate("bluesky", limits, version).map((violation) => violation.message)

describe("Validator: graphemes and bytes", () => {
  it("counts 300 graphemes, not code points: 300 flags pass, a 301st grapheme does not", () => {
    // 300 flags are 600 code points and 2,400 bytes: within both limits.
    assert.deepStrictEqual(messages(bluesky, post({ text: "🇫🇷".repeat(300) })), [])
    assert.deepStrictEqual(messages(bluesky, post({ text: "a".repeat(301) })), ["bluesky: text is 301 graphemes; the limit is 300"])
  })

  it("checks the bytes beside the graphemes: 300 families are 300 graphemes but 7,500 bytes", () => {
    const families = "👨‍👩‍👧‍👦".repeat(300)
    const violations = validate("bluesky", bluesky, post({ text: families }))
    assert.deepStrictEqual(violations.map((violation) => [violation.field, violation.limit, violation.actual]), [
      ["text", "at most 3000 bytes", "7500 bytes"]
    ])
    assert.strictEqual(violations[0]!.message, "bluesky: text is 7500 bytes; the limit is 3000")
  })

  it("holds each follow-up of a thread to both, naming its place", () => {
    const violations = validate("bluesky", bluesky, post({ text: "ok", thread: ["b".repeat(302), "👨‍👩‍👧‍👦".repeat(200)] }))
    assert.deepStrictEqual(violations.map((violation) => [violation.message, violation.item]), [
      ["bluesky: thread post 2 is 302 graphemes; the limit is 300", 0],
      ["bluesky: thread post 3 is 5000 bytes; the limit is 3000", 1]
    ])
  })
})

describe("Validator: file sizes", () => {
  it("refuses a photo over the photo limit and a video over the video limit, naming each attachment", () => {
    assert.deepStrictEqual(messages(bluesky, post({ media: [item("image", 1_000_000)] })), [])
    const violations = validate("bluesky", bluesky, post({ media: [item("image", 900_000), item("image", 1_450_000)] }))
    assert.deepStrictEqual(violations.map((violation) => [violation.field, violation.item, violation.message]), [
      ["media", 1, "bluesky: photo 2 is 1,450,000 bytes (1.5 MB); the limit is 1,000,000 bytes (1 MB)"]
    ])
    assert.deepStrictEqual(messages(bluesky, post({ media: [item("video", 120_000_000)] })), [
      "bluesky: video 1 is 120,000,000 bytes (120 MB); the limit is 100,000,000 bytes (100 MB)"
    ])
  })

  it("leaves file sizes alone where the network states none", () => {
    assert.deepStrictEqual(messages(plain, post({ media: [item("image", 50_000_000)] })), [])
  })
})

describe("Validator: alt text", () => {
  it("takes alt text up to the network's length and refuses one character more, naming the attachment", () => {
    assert.deepStrictEqual(messages(bluesky, post({ media: [item("image", 10, "é".repeat(2_000))] })), [])
    const violations = validate("bluesky", bluesky, post({ media: [item("image", 10), item("image", 20, "x".repeat(2_001))] }))
    assert.deepStrictEqual(violations.map((violation) => [violation.field, violation.item, violation.message]), [
      ["media", 1, "bluesky: the alt text of photo 2 is 2001 characters; the limit is 2000"]
    ])
  })

  it("does not hold alt text against a network that takes none: it is simply not sent", () => {
    assert.deepStrictEqual(messages(plain, post({ media: [item("image", 10, "x".repeat(5_000))] })), [])
  })
})
