/**
 * Text length the way each network counts it, and the links a text contains. Networks disagree on what a
 * "character" is, so a limit is only meaningful together with its counter (`TextLimits.counter`).
 */
// twitter-text ships CommonJS only; Node's ESM loader hands its `module.exports` over as the default export.
import twitter from "twitter-text"
import type { TextCounter } from "./Limits.ts"

const utf8 = new TextEncoder()
// The locale does not change where grapheme clusters break (UAX #29 is locale-independent).
const segmenter = new Intl.Segmenter("en", { granularity: "grapheme" })

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
      return twitter.parseTweet(text).weightedLength
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
      return graphemes(remoteMentionsLocal(linksAs23(text)))
  }
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

const remoteMention = /(^|[^\p{L}\p{N}_/])(@[\p{L}\p{N}_]+(?:[.-]+[\p{L}\p{N}_]+)*)@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/gu
const remoteMentionsLocal = (text: string): string => text.replace(remoteMention, "$1$2")

/** UTF-8 bytes as sent: Herald does not normalise the text on its way out, so neither does the count. */
export const bytes = (text: string): number => utf8.encode(text).byteLength

/**
 * The distinct links in `text`, in order of first appearance. Bare domains (`example.com`) count, as the
 * networks turn them into links too.
 */
export const links = (text: string): ReadonlyArray<string> => Array.from(new Set(twitter.extractUrls(text)))
