/**
 * Text length the way each network counts it, and the links a text contains. Networks disagree on what a
 * "character" is, so a limit is only meaningful together with its counter (`TextLimits.counter`).
 */
// twitter-text ships CommonJS only; Node's ESM loader hands its `module.exports` over as the default export.
import twitter from "twitter-text"
import type { TextCounter, TextLimits } from "./Limits.ts"

const utf8 = new TextEncoder()
// The locale does not change where grapheme clusters break (UAX #29 is locale-independent).
const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" })

/**
 * The longest run of text without white space that twitter-text is asked to find links in. Its link finder
 * slows down more than linearly with such a run (`a.a.a.…`: 4,000 characters took 150 ms, 16,000 a second), so a
 * text is handed to it a run at a time, and a longer run is not searched: the counters that weigh links count
 * it at the most any such run could weigh (`longRun`), so a text is never found shorter than its network
 * finds it, and it adds no link to `links`. No link of more than 1,024 characters is expected in a post.
 */
export const longestRun = 1_024
/**
 * What a run past `longestRun` weighs a character: the most a network could count. On X a link of 4
 * characters (`a.co`) weighs 23, under 6 a character; Mastodon links only with a scheme (`http://a.co`,
 * 11 characters), under 3 a character.
 */
const longRun = { x: 6, mastodon: 3 } as const

/**
 * `text` in pieces that each hold one run without white space and the white space before it, so that no link
 * spans two pieces; `long` marks a run past `longestRun` that could hold a link (`linkish`), the only kind
 * that is slow to search: a long run without one is counted exactly.
 */
const pieces = function*(
  text: string,
  linkish: (run: string) => boolean
): Generator<{ readonly space: string; readonly run: string; readonly long: boolean }> {
  let at = 0
  while (at < text.length) {
    let runStart = at
    while (runStart < text.length && isSpace(text.charCodeAt(runStart))) runStart++
    let runEnd = runStart
    while (runEnd < text.length && !isSpace(text.charCodeAt(runEnd))) runEnd++
    const run = text.slice(runStart, runEnd)
    yield { space: text.slice(at, runStart), run, long: run.length > longestRun && linkish(run) }
    at = runEnd
  }
}

// twitter-text's links never hold these; other white space (U+3000, say) is left inside runs, which is safe.
const isSpace = (code: number) => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09 || code === 0x0c

// What a link needs somewhere in its run: on X a domain's dot (bare domains are links there); on Mastodon a
// scheme (and a remote mention, also searched by pattern, an `@`).
const xLinkish = (run: string) => run.includes(".")
const mastodonLinkish = (run: string) => run.includes("://") || run.includes("@")

/** X's weighted length, a run at a time (links never span white space, so the weights add up). */
const xWeighted = (text: string): number => {
  let weight = 0
  for (const { long, run, space } of pieces(text, xLinkish)) {
    weight += long
      ? (space === "" ? 0 : twitter.parseTweet(space).weightedLength) + Array.from(run).length * longRun.x
      : twitter.parseTweet(space + run).weightedLength
  }
  return weight
}

/** The length of `text` as a network with this counter measures it. */
export const count = (text: string, counter: TextCounter): number => {
  switch (counter) {
    case "characters":
      // Code points, not UTF-16 units: an emoji is one. NFC first, so "e" + combining accent counts as the
      // single "é" a person sees and most networks store.
      return Array.from(text.normalize("NFC")).length
    case "x-weighted":
      // X's own rules (https://docs.x.com/fundamentals/counting-characters): URLs weigh 23 whatever their
      // length, CJK and emoji weigh 2; parseTweet normalises to NFC itself.
      return xWeighted(text)
    case "utf8-bytes":
      return bytes(text)
    case "graphemes":
      // Extended grapheme clusters, as Bluesky counts them (the app.bsky.feed.post lexicon's
      // `maxGraphemes`): a family emoji joined by zero-width joiners, a flag, "e" + combining accent are
      // one each. Not normalised, like the bytes: the text is sent as it is.
      return graphemes(text)
    case "mastodon":
      // Mastodon's status length (https://docs.joinmastodon.org/user/posting/#text): every link counts 23
      // characters whatever its length, a remote mention only its local part (`@user@example.social` as
      // `@user`), and the rest in grapheme clusters, as the server's length validator counts them.
      return mastodonLength(text)
    case "utf16-units":
      // As sent, like the bytes: TikTok's caption is "2200 in UTF-16 runes".
      return text.length
    case "emoji-bytes":
      return emojiBytes(text)
  }
}

/**
 * The length of a text held to `limits`, sent with a post whose settings are `settings`: the text by the
 * limit's counter, and the setting the network counts with it (`countsWith`: Mastodon's content warning),
 * when the post has one.
 */
export const measure = (text: string, limits: TextLimits, settings: Readonly<Record<string, unknown>>): number =>
  count(text, limits.counter) + countedWith(limits, settings)

/** The length of the setting counted with the text (`TextLimits.countsWith`), 0 when the post has none. */
export const countedWith = (limits: TextLimits, settings: Readonly<Record<string, unknown>>): number => {
  const value = limits.countsWith === undefined ? undefined : settings[limits.countsWith.setting]
  return typeof value === "string" ? count(value, limits.countsWith!.counter) : 0
}

// A grapheme cluster that shows as an emoji: a pictograph (faces, hearts, ZWJ families), a flag's regional
// indicators, or a keycap. Each test is of one character class, so nothing backtracks.
const emoji = /\p{Extended_Pictographic}|\p{Regional_Indicator}|\u20E3/u

/**
 * Threads' count (https://developers.facebook.com/documentation/threads/posts: "Emojis are counted as the
 * number of UTF-8 bytes"): code points after NFC, as `characters`, but an emoji cluster as all its UTF-8
 * bytes, its joiners and variation selectors included (a face 4, a heart with U+FE0F 6, a family of four 25).
 * Where Meta does not say how a sequence counts, the whole cluster's bytes are the most it could be, so Herald
 * never finds a text shorter than Threads does. A pictograph usually shown as text (©) counts its bytes too.
 */
const emojiBytes = (text: string): number => {
  let length = 0
  for (const { segment } of segmenter.segment(text.normalize("NFC"))) {
    length += emoji.test(segment) ? bytes(segment) : Array.from(segment).length
  }
  return length
}

const graphemes = (text: string): number => {
  let clusters = 0
  for (const _ of segmenter.segment(text)) clusters++
  return clusters
}

// Links with their scheme only, as Mastodon finds them (it does not link bare domains).
const linksAs23 = (text: string): string => {
  let counted = ""
  let from = 0
  for (const { indices: [start, end] } of twitter.extractUrlsWithIndices(text, { extractUrlsWithoutProtocol: false })) {
    counted += text.slice(from, start) + "x".repeat(23)
    from = end
  }
  return counted + text.slice(from)
}

/** Mastodon's length, a run at a time: links and mentions never span white space. */
const mastodonLength = (text: string): number => {
  let length = 0
  for (const { long, run, space } of pieces(text, mastodonLinkish)) {
    length += long
      ? graphemes(space) + Array.from(run).length * longRun.mastodon
      : mastodonLinkish(run)
      ? graphemes(remoteMentionsLocal(linksAs23(space + run)))
      : graphemes(space + run)
  }
  return length
}

const remoteMention = /(^|[^\p{L}\p{N}_/])(@[\p{L}\p{N}_]+(?:[.-]+[\p{L}\p{N}_]+)*)@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu
const remoteMentionsLocal = (text: string): string => text.replace(remoteMention, "$1$2")

/** UTF-8 bytes as sent: Herald does not normalise the text on its way out, so neither does the count. */
export const bytes = (text: string): number => utf8.encode(text).byteLength

/**
 * The distinct links in `text`, in order of first appearance. Bare domains (`example.com`) count, as the
 * networks turn them into links too. A run past `longestRun` adds none: the one network with a link limit
 * (Threads, 5) takes 500 characters, so such a text is refused for its length.
 */
export const links = (text: string): ReadonlyArray<string> => {
  const found = new Set<string>()
  for (const { long, run } of pieces(text, xLinkish)) {
    if (!long) for (const link of twitter.extractUrls(run)) found.add(link)
  }
  return Array.from(found)
}
