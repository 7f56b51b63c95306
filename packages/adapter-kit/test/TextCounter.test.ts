import { assert, describe, it } from "@effect/vitest"
import twitter from "twitter-text"
import { count, links, measure } from "../src/TextCounter.ts"

describe("TextCounter.count", () => {
  it("counts plain ASCII the same under every counter", () => {
    assert.strictEqual(count("hello world", "characters"), 11)
    assert.strictEqual(count("hello world", "x-weighted"), 11)
    assert.strictEqual(count("hello world", "utf8-bytes"), 11)
  })

  it("counts an emoji as one character, two on X and four bytes", () => {
    assert.strictEqual(count("😀", "characters"), 1)
    assert.strictEqual(count("😀", "x-weighted"), 2)
    assert.strictEqual(count("😀", "utf8-bytes"), 4)
  })

  it("weighs a family emoji as one emoji on X, as X documents", () => {
    assert.strictEqual(count("👨‍👩‍👧‍👦", "x-weighted"), 2)
  })

  it("counts CJK as one character each, two each on X and three bytes each", () => {
    assert.strictEqual(count("東京", "characters"), 2)
    assert.strictEqual(count("東京", "x-weighted"), 4)
    assert.strictEqual(count("東京", "utf8-bytes"), 6)
  })

  it("weighs any URL as 23 on X, however long", () => {
    const url = "https://example.com/a/very/long/path/that/goes/on/and/on?with=query"
    assert.strictEqual(count(url, "x-weighted"), 23)
    assert.strictEqual(count("https://a.co", "x-weighted"), 23)
    assert.strictEqual(count(`read ${url}`, "x-weighted"), 5 + 23)
    assert.strictEqual(count(url, "characters"), url.length)
  })

  it("counts a combining sequence that NFC composes as one character", () => {
    const decomposed = "cafe\u0301"
    assert.strictEqual(count(decomposed, "characters"), 4)
    assert.strictEqual(count(decomposed, "x-weighted"), 4)
    // Bytes are counted as sent, without normalising: "e" plus the combining accent is 1 + 2 bytes.
    assert.strictEqual(count(decomposed, "utf8-bytes"), 6)
    assert.strictEqual(count("café", "utf8-bytes"), 5)
  })

  it("counts graphemes as a person sees them: a family, a flag and an accented letter are one each", () => {
    assert.strictEqual(count("abc", "graphemes"), 3)
    // 4 people joined by zero-width joiners: 7 code points, 25 bytes, one grapheme.
    assert.strictEqual(count("👨‍👩‍👧‍👦", "graphemes"), 1)
    assert.strictEqual(count("👨‍👩‍👧‍👦", "characters"), 7)
    // A flag is two regional indicators; "e" with a combining accent stays one without normalising.
    assert.strictEqual(count("🇫🇷e\u0301", "graphemes"), 2)
    assert.strictEqual(count("", "graphemes"), 0)
  })

  it("counts nothing in an empty text", () => {
    assert.strictEqual(count("", "characters"), 0)
    assert.strictEqual(count("", "x-weighted"), 0)
    assert.strictEqual(count("", "utf8-bytes"), 0)
  })
})

describe("TextCounter.count for Mastodon", () => {
  it("counts a link as 23 whatever its length, a remote mention as its local part, the rest in graphemes", () => {
    const link = `https://example.com/${"a".repeat(100)}`
    assert.strictEqual(count(`Read ${link} now`, "mastodon"), 5 + 23 + 4)
    assert.strictEqual(count("https://a.io", "mastodon"), 23)
    // Bare domains are not links on Mastodon: counted as they are.
    assert.strictEqual(count("example.com", "mastodon"), 11)
    assert.strictEqual(count("hi @alice@mastodon.social!", "mastodon"), "hi @alice!".length)
    assert.strictEqual(count("@bob hello", "mastodon"), 10)
    // An e-mail address is not a mention.
    assert.strictEqual(count("mail me@example.com", "mastodon"), 19)
    assert.strictEqual(count("👨‍👩‍👧‍👦🇫🇷", "mastodon"), 2)
  })
})

describe("TextCounter.count for Threads and TikTok", () => {
  it("counts each emoji as its UTF-8 bytes and the rest as characters (emoji-bytes)", () => {
    assert.strictEqual(count(`${"a".repeat(497)}😀`, "emoji-bytes"), 501)
    assert.strictEqual(count("東京", "emoji-bytes"), 2)
    assert.strictEqual(count("cafe\u0301", "emoji-bytes"), 4)
    // A heart with its emoji presentation selector, a flag, a keycap, a family of four: every byte of each.
    assert.strictEqual(count("❤️", "emoji-bytes"), 6)
    assert.strictEqual(count("🇫🇷", "emoji-bytes"), 8)
    assert.strictEqual(count("1️⃣", "emoji-bytes"), 7)
    assert.strictEqual(count("👨‍👩‍👧‍👦", "emoji-bytes"), 25)
    assert.strictEqual(count("", "emoji-bytes"), 0)
  })

  it("counts UTF-16 code units as sent (utf16-units): an emoji is two, a letter or a CJK character one", () => {
    assert.strictEqual(count(`${"a".repeat(2199)}😀`, "utf16-units"), 2201)
    assert.strictEqual(count("東京", "utf16-units"), 2)
    assert.strictEqual(count("cafe\u0301", "utf16-units"), 5)
  })
})

describe("TextCounter.measure", () => {
  const limits = { max: 500, counter: "mastodon", countsWith: { setting: "spoilerText", name: "content warning", counter: "graphemes" } } as const

  it("adds the setting counted with the text, by its own counter, and nothing when it is absent or not text", () => {
    const link = `https://example.com/${"a".repeat(60)}`
    assert.strictEqual(measure(`see ${link}`, limits, { spoilerText: link }), 4 + 23 + link.length)
    assert.strictEqual(measure("hello", limits, { spoilerText: "👨‍👩‍👧‍👦" }), 6)
    assert.strictEqual(measure("hello", limits, { spoilerText: null }), 5)
    assert.strictEqual(measure("hello", limits, {}), 5)
    assert.strictEqual(measure("hello", { max: 500, counter: "characters" }, { spoilerText: "ignored" }), 5)
  })
})

describe("TextCounter.links", () => {
  it("lists each distinct link once, in order of appearance, bare domains included", () => {
    assert.deepStrictEqual(
      links("see https://news.com/x and example.org, then https://news.com/x again and https://blog.net"),
      ["https://news.com/x", "example.org", "https://blog.net"]
    )
  })

  it("ignores what only looks like a domain", () => {
    // `.example` is a reserved name, not a real top-level domain, so no network would link it.
    assert.deepStrictEqual(links("https://site.example and file.txt"), [])
  })

  it("finds no links in plain text", () => {
    assert.deepStrictEqual(links("no links here, just words."), [])
  })
})

describe("TextCounter on texts made to be slow", () => {
  // twitter-text's link finder slows down more than linearly on a long run like `a.a.a.…` (issue 28: 32 KB kept
  // the server busy 47 s). Counting goes a run at a time, and a run past `longestRun` is never handed to it.
  const slow = (length: number) => `http://${"a.".repeat(length / 2)}`

  it("takes a run past 1,024 characters for more than any limit of the counters that weigh links, without looking for links in it", () => {
    for (const text of [slow(32 * 1024), `hello ${slow(400 * 1024)} world`]) {
      assert.isAbove(count(text, "x-weighted"), 280 * 6)
      assert.isAbove(count(text, "mastodon"), 500 * 3)
      assert.deepStrictEqual(links(text), [])
    }
  })

  it("counts texts of ordinary runs exactly as counting the whole text at once would", () => {
    const words = ["hello", "東京", "😀", "👨‍👩‍👧‍👦", "https://example.com/a?b=c", "example.org", "cafe\u0301", "@user@example.social", "#tag", "a.b"]
    const spaces = [" ", "\n", "  ", "\t", " \n "]
    let seed = 7
    const pick = <A>(list: ReadonlyArray<A>) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return list[seed % list.length]!
    }
    for (let round = 0; round < 200; round++) {
      let text = ""
      for (let word = 0; word < 12; word++) text += pick(spaces) + pick(words) + (seed % 3 === 0 ? pick(words) : "")
      assert.strictEqual(count(text, "x-weighted"), twitter.parseTweet(text).weightedLength, JSON.stringify(text))
      assert.deepStrictEqual(links(text), Array.from(new Set(twitter.extractUrls(text))), JSON.stringify(text))
    }
  })
})

describe("TextCounter on long runs that cannot hold a link", () => {
  it("counts them exactly: a run without a dot on X, without a scheme or @ on Mastodon", () => {
    const run = "a".repeat(5_000)
    assert.strictEqual(count(run, "mastodon"), 5_000)
    assert.strictEqual(count(run, "x-weighted"), 5_000)
    assert.strictEqual(count(`東京${"東".repeat(2_000)}`, "x-weighted"), 2 * 2_002)
  })
})
