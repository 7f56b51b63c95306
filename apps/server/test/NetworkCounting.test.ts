import { assert, describe, it } from "@effect/vitest"
import { BlueskyLimits } from "@herald/adapter-bluesky"
import { FacebookLimits } from "@herald/adapter-facebook"
import { InstagramLimits } from "@herald/adapter-instagram"
import { type Limits, Validator } from "@herald/adapter-kit"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { LinkedInLimits } from "@herald/adapter-linkedin"
import { MastodonLimits } from "@herald/adapter-mastodon"
import { ThreadsLimits } from "@herald/adapter-threads"
import { TikTokLimits } from "@herald/adapter-tiktok"
import { XLimits } from "@herald/adapter-x"
import { YouTubeLimits } from "@herald/adapter-youtube"

// Each network's text limit as its own documentation counts (issue 31): the weight of an emoji, a letter with
// a combining mark, a CJK character and a link, written out here from the rule each network states, not from
// the kit's counters. A text of exactly the limit made of such pieces passes the adapter's declared limits,
// and one letter more breaks them.

const emoji = "😀"
// `a` with a combining low line: no precomposed form, so it stays two code points however it is normalised.
const combining = "a\u0332"
const cjk = "東"
const link = "https://example.com/a-long-path-for-counting"

interface Rule {
  readonly network: string
  readonly limits: Limits.Limits
  readonly counter: Limits.TextCounter
  /** Where the network states how it counts. */
  readonly source: string
  /** What each piece weighs by that rule. */
  readonly weights: Readonly<Record<"emoji" | "combining" | "cjk" | "link", number>>
}

const rules: ReadonlyArray<Rule> = [
  {
    network: "x",
    limits: XLimits.limits,
    counter: "x-weighted",
    // Code points weigh 1 in the Latin ranges (the combining low line, U+0332, among them) and 2 elsewhere;
    // an emoji is 2, any URL 23.
    source: "https://docs.x.com/resources/fundamentals/counting-characters",
    weights: { emoji: 2, combining: 2, cjk: 2, link: 23 }
  },
  {
    network: "threads",
    limits: ThreadsLimits.limits,
    counter: "emoji-bytes",
    // "Emojis are counted as the number of UTF-8 bytes"; other characters one each.
    source: "https://developers.facebook.com/documentation/threads/posts",
    weights: { emoji: 4, combining: 2, cjk: 1, link: link.length }
  },
  {
    network: "tiktok",
    limits: TikTokLimits.limits,
    counter: "utf16-units",
    // The caption is "2200 in UTF-16 runes".
    source: "https://developers.tiktok.com/doc/content-posting-api-reference-direct-post",
    weights: { emoji: 2, combining: 2, cjk: 1, link: link.length }
  },
  {
    network: "youtube",
    limits: YouTubeLimits.limits,
    counter: "utf8-bytes",
    // The description is at most 5,000 bytes.
    source: "https://developers.google.com/youtube/v3/docs/videos#snippet.description",
    weights: { emoji: 4, combining: 3, cjk: 3, link: link.length }
  },
  {
    network: "bluesky",
    limits: BlueskyLimits.limits,
    counter: "graphemes",
    // `text` of app.bsky.feed.post: maxGraphemes 300 (and maxLength 3,000 bytes, far from reached here).
    source: "https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/feed/post.json",
    weights: { emoji: 1, combining: 1, cjk: 1, link: link.length }
  },
  {
    network: "mastodon",
    limits: MastodonLimits.limits,
    counter: "mastodon",
    // Grapheme clusters, every URL 23 (StatusLengthValidator, mastodon/mastodon app/validators).
    source: "https://docs.joinmastodon.org/user/posting/#text",
    weights: { emoji: 1, combining: 1, cjk: 1, link: 23 }
  },
  {
    network: "instagram",
    limits: InstagramLimits.limits,
    counter: "characters",
    source: "https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user/media#caption",
    weights: { emoji: 1, combining: 2, cjk: 1, link: link.length }
  },
  {
    network: "linkedin",
    limits: LinkedInLimits.limits,
    counter: "characters",
    source: "https://learn.microsoft.com/en-us/linkedin/marketing/community-management/shares/posts-api",
    weights: { emoji: 1, combining: 2, cjk: 1, link: link.length }
  },
  {
    network: "facebook",
    limits: FacebookLimits.limits,
    counter: "characters",
    source: "https://developers.facebook.com/docs/graph-api/reference/page/feed",
    weights: { emoji: 1, combining: 2, cjk: 1, link: link.length }
  }
]

const pieces = { emoji, combining, cjk, link } as const

const textViolations = (rule: Rule, text: string) =>
  Validator.validate(rule.network, rule.limits, AdapterSuite.post({ text })).filter((violation) => violation.field === "text")

describe("each network's text limit, counted as its documentation counts", () => {
  it("every installed network is here", () => {
    assert.deepStrictEqual(rules.map((rule) => rule.network).sort(), [
      "bluesky",
      "facebook",
      "instagram",
      "linkedin",
      "mastodon",
      "threads",
      "tiktok",
      "x",
      "youtube"
    ])
  })

  for (const rule of rules) {
    it(`${rule.network} counts in ${rule.counter} (${rule.source})`, () => {
      const text = rule.limits.forms.post.text
      assert.strictEqual(text.counter, rule.counter)
      for (const [name, piece] of Object.entries(pieces) as ReadonlyArray<[keyof typeof pieces, string]>) {
        const weight = rule.weights[name]
        // Up to ten of the piece, each followed by a space (so a link ends where it should), then letters to
        // exactly the limit.
        const times = Math.min(10, Math.floor((text.max - 10) / (weight + 1)))
        const used = times * (weight + 1)
        const atLimit = `${piece} `.repeat(times) + "a".repeat(text.max - used)
        assert.deepStrictEqual(textViolations(rule, atLimit), [], `${rule.network}: ${name} at the limit`)
        const over = textViolations(rule, `${atLimit}a`)
        assert.strictEqual(over.length, 1, `${rule.network}: ${name} one over`)
        assert.include(over[0]!.message, `${text.max + 1}`)
      }
    })
  }
})
