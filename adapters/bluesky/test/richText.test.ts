import { assert, describe, it } from "@effect/vitest"
import * as RichText from "../src/internal/richText.ts"

const utf8 = new TextEncoder()
const decoder = new TextDecoder()
/** The text a byte range covers, as Bluesky's app slices it. */
const slice = (text: string, range: RichText.ByteRange) => decoder.decode(utf8.encode(text).slice(range.byteStart, range.byteEnd))

describe("Bluesky rich text", () => {
  it("counts graphemes, not code points or UTF-16 units", () => {
    assert.strictEqual(RichText.graphemes("abc"), 3)
    // A family (4 people joined by zero-width joiners) is one grapheme, 7 code points, 11 UTF-16 units.
    assert.strictEqual(RichText.graphemes("👨‍👩‍👧‍👦"), 1)
    // A flag is two regional indicators; "e" with a combining accent is one grapheme.
    assert.strictEqual(RichText.graphemes("🇫🇷e\u0301"), 2)
    assert.strictEqual(RichText.bytes("👨‍👩‍👧‍👦"), 25)
  })

  it("allows 300 graphemes and 3,000 bytes, and says which it breaks", () => {
    assert.deepStrictEqual(RichText.lengthProblems("a".repeat(300)), [])
    assert.deepStrictEqual(RichText.lengthProblems("a".repeat(301)), ["text is 301 graphemes; the limit is 300"])
    // 300 families are 300 graphemes but 7,500 bytes.
    assert.deepStrictEqual(RichText.lengthProblems("👨‍👩‍👧‍👦".repeat(300)), ["text is 7500 bytes; the limit is 3000"])
  })

  it("gives links, mentions and hashtags UTF-8 byte ranges after emoji and accents", () => {
    const text = "Café ☕️ 👋🏽 see https://example.com/ünï?q=1, ask @alice.bsky.social about #Pâtisserie!"
    const found = RichText.detect(text)
    assert.deepStrictEqual(found.map((item) => item._tag), ["Link", "Mention", "Tag"])
    assert.deepStrictEqual(found.map((item) => slice(text, item.index)), [
      "https://example.com/ünï?q=1",
      "@alice.bsky.social",
      "#Pâtisserie"
    ])
    const link = found[0]!
    // "Café ☕️ 👋🏽 see " is 17 UTF-16 units before the link but 26 bytes.
    assert.strictEqual(text.indexOf("https"), 17)
    assert.strictEqual(link.index.byteStart, 26)
  })

  it("leaves out numbers as hashtags, trailing punctuation, and tags inside links", () => {
    const found = RichText.detect("#1 and #ok. then https://x.example/#anchor")
    assert.deepStrictEqual(
      found.map((item) => (item._tag === "Tag" ? item.tag : item._tag === "Link" ? item.uri : item.handle)),
      ["ok", "https://x.example/#anchor"]
    )
  })

  it("makes facets of resolved mentions only", () => {
    const text = "hi @bob.test and @nobody.test"
    const facets = RichText.facets(RichText.detect(text), new Map([["bob.test", "did:plc:bob"]]))
    assert.deepStrictEqual(facets, [{
      index: { byteStart: 3, byteEnd: 12 },
      features: [{ $type: "app.bsky.richtext.facet#mention", did: "did:plc:bob" }]
    }])
  })
})
