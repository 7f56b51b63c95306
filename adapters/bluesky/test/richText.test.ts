import { assert, describe, it } from "@effect/vitest"
import { RichText as OfficialRichText } from "@atproto/api"
import { Effect } from "effect"
import * as RichText from "../src/internal/richText.ts"

const utf8 = new TextEncoder()
const decoder = new TextDecoder()
/** The text a byte range covers, as Bluesky's app slices it. */
const slice = (text: string, index: { readonly byteStart: number; readonly byteEnd: number }) =>
  decoder.decode(utf8.encode(text).slice(index.byteStart, index.byteEnd))

const link = (byteStart: number, byteEnd: number, uri: string): RichText.Facet => ({
  index: { byteStart, byteEnd },
  features: [{ $type: "app.bsky.richtext.facet#link", uri }]
})
const mention = (byteStart: number, byteEnd: number, did: string): RichText.Facet => ({
  $type: "app.bsky.richtext.facet",
  index: { byteStart, byteEnd },
  features: [{ $type: "app.bsky.richtext.facet#mention", did }]
})
const tag = (byteStart: number, byteEnd: number, name: string): RichText.Facet => ({
  index: { byteStart, byteEnd },
  features: [{ $type: "app.bsky.richtext.facet#tag", tag: name }]
})

/** The sandbox's handles and their DIDs; any other handle does not resolve. */
const dids: ReadonlyMap<string, string> = new Map([
  ["alice.bsky.social", "did:plc:alice"],
  ["bob.test", "did:plc:bob"],
  ["carol.example.com", "did:plc:carol"],
  ["kim.test", "did:plc:kim"]
])
const resolve = (handle: string) => Effect.succeed(dids.get(handle))

/**
 * Each text with the facets Bluesky's own app sends for it: written from running @atproto/api 0.21.0's
 * `RichText.detectFacets` (mentions resolved with `dids`, and one that does not resolve dropped, as the app
 * does), and held to that library below. Byte offsets are of the UTF-8 text.
 */
const samples: ReadonlyArray<readonly [string, ReadonlyArray<RichText.Facet>]> = [
  ["see example.com", [link(4, 15, "https://example.com")]],
  ["see example.com.", [link(4, 15, "https://example.com")]],
  ["Visit bsky.app/profile/why today", [link(6, 26, "https://bsky.app/profile/why")]],
  ["x.com/jack, and that is it", [link(0, 10, "https://x.com/jack")]],
  ["mixed CAPS Example.COM here", []],
  ["not.a.domain.invalidtld but foo.bar is", [link(28, 35, "https://foo.bar")]],
  ["email me at alice@example.com", []],
  ["v1.2.3 and 3.14 are numbers", []],
  ["https://example.com/path?q=1&r=2#frag", [link(0, 37, "https://example.com/path?q=1&r=2#frag")]],
  ["(https://en.wikipedia.org/wiki/Fish_(disambiguation))", [link(1, 53, "https://en.wikipedia.org/wiki/Fish_(disambiguation))")]],
  ["link: https://example.com/x), done", [link(6, 27, "https://example.com/x")]],
  ["Wow! https://example.com!", [link(5, 24, "https://example.com")]],
  ["http://insecure.example.org/", [link(0, 28, "http://insecure.example.org/")]],
  ["👋🏽 hello https://example.com/ünï", [link(15, 40, "https://example.com/ünï")]],
  ["🇫🇷 example.fr/café ok", [link(9, 25, "https://example.fr/café")]],
  ["Café ☕️ 👋🏽 see https://example.com/ünï?q=1, ask @alice.bsky.social about #Pâtisserie!", [link(26, 55, "https://example.com/ünï?q=1"), mention(61, 79, "did:plc:alice"), tag(86, 98, "Pâtisserie")]],
  ["@alice.bsky.social hi", [mention(0, 18, "did:plc:alice")]],
  ["hi @bob.test and @nobody.test", [mention(3, 12, "did:plc:bob")]],
  ["(@carol.example.com) said so", [mention(1, 19, "did:plc:carol")]],
  ["Thanks @Alice.bsky.social! and @Bob.TEST", [mention(7, 25, "did:plc:alice")]],
  ["#hashtag #1 #ok. #日本語 #café!", [tag(0, 8, "hashtag"), tag(12, 15, "ok"), tag(17, 27, "日本語"), tag(28, 34, "café")]],
  ["＃fullwidth and #tag_with_underscore and #emoji🎉", [tag(0, 12, "fullwidth"), tag(17, 37, "tag_with_underscore"), tag(42, 52, "emoji🎉")]],
  ["https://example.com/#anchor #outside", [link(0, 27, "https://example.com/#anchor"), tag(28, 36, "outside")]],
  ["中文文本 https://例子.测试/路径 和 #中文", [link(13, 41, "https://例子.测试/路径"), tag(46, 53, "中文")]],
  ["日本語のテキスト example.jp と #日本", [link(25, 35, "https://example.jp"), tag(40, 47, "日本")]],
  ["한국어 @kim.test #한국어", [mention(10, 19, "did:plc:kim"), tag(20, 30, "한국어")]],
  ["cashtag $AAPL and $ alone", [tag(8, 13, "$AAPL")]],
  ["line\nbreak example.com\n#tag", [link(11, 22, "https://example.com"), tag(23, 27, "tag")]]

]

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

  it.effect(`gives each of ${samples.length} texts the facets Bluesky's own app gives it: bare domains, links, mentions, hashtags`, () =>
    Effect.gen(function*() {
      for (const [text, expected] of samples) {
        assert.deepStrictEqual(yield* RichText.facetsOf(text, resolve), expected, text)
      }
    }))

  it("holds the samples to @atproto/api's own RichText", () => {
    for (const [text, expected] of samples) {
      const official = new OfficialRichText({ text })
      official.detectFacetsWithoutResolution()
      // Unresolved, a mention holds the handle it covers; the samples hold resolved ones only.
      const found = (official.facets ?? []).filter((facet) =>
        facet.features.every((feature) => feature.$type !== "app.bsky.richtext.facet#mention" || dids.has(String((feature as { did?: unknown }).did).toLowerCase()))
      )
      const resolved = expected.map((facet) => ({
        ...facet,
        features: facet.features.map((feature) =>
          feature.$type === "app.bsky.richtext.facet#mention" ? { ...feature, did: slice(text, facet.index).slice(1) } : feature
        )
      }))
      assert.deepStrictEqual(found, resolved, text)
    }
  })

  it.effect("covers a bare domain as written and sends it with https://, after emoji counted in UTF-8 bytes", () =>
    Effect.gen(function*() {
      const text = "🇫🇷 example.fr/café ok"
      const [facet] = yield* RichText.facetsOf(text, resolve)
      assert.strictEqual(slice(text, facet!.index), "example.fr/café")
      // The flag is 2 UTF-16 units but 8 bytes: the link starts at byte 9, not at index 5.
      assert.deepStrictEqual([text.indexOf("example"), facet!.index.byteStart], [5, 9])
    }))

  it.effect("resolves each handle once, in lower case and in the text's order, and leaves an unknown one as text", () =>
    Effect.gen(function*() {
      const asked: Array<string> = []
      const facets = yield* RichText.facetsOf("@Nobody.test and @Bob.test then @bob.test #b", (handle) => {
        asked.push(handle)
        return resolve(handle)
      })
      assert.deepStrictEqual(asked, ["nobody.test", "bob.test"])
      assert.deepStrictEqual(facets, [mention(17, 26, "did:plc:bob"), mention(32, 41, "did:plc:bob"), tag(42, 44, "b")])
    }))
})
