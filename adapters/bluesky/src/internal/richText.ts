/**
 * Bluesky's rich text, pure: a post's text is sent as it is, and its links, mentions and hashtags as
 * facets, ranges given in UTF-8 byte offsets of the text, not JavaScript string indexes
 * (https://docs.bsky.app/docs/advanced-guides/post-richtext). The PDS parses nothing itself: a link with
 * no facet is plain text. Lengths are counted as the app.bsky.feed.post lexicon states them: at most 300
 * graphemes and 3,000 bytes (https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/feed/post.json).
 */

export const maxGraphemes = 300
export const maxBytes = 3000

const utf8 = new TextEncoder()
const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" })

/** User-perceived characters (extended grapheme clusters): a family emoji or a flag is one. */
export const graphemes = (text: string): number => {
  let count = 0
  for (const _ of segmenter.segment(text)) count++
  return count
}

export const bytes = (text: string): number => utf8.encode(text).byteLength

export interface ByteRange {
  readonly byteStart: number
  readonly byteEnd: number
}

/** A link, a mention (a handle still to resolve to a DID) or a hashtag (without its `#`), found in the text. */
export type Found =
  | { readonly _tag: "Link"; readonly index: ByteRange; readonly uri: string }
  | { readonly _tag: "Mention"; readonly index: ByteRange; readonly handle: string }
  | { readonly _tag: "Tag"; readonly index: ByteRange; readonly tag: string }

/** The byte range of `text.slice(start, end)` (string indexes) within `text`. */
const range = (text: string, start: number, end: number): ByteRange => {
  const byteStart = bytes(text.slice(0, start))
  return { byteStart, byteEnd: byteStart + bytes(text.slice(start, end)) }
}

// The patterns of Bluesky's own client (@atproto/api RichText.detectFacets), simplified: links with a scheme,
// handles that are domains, and hashtags that are not only digits, each after a start or a space.
const linkPattern = /(^|\s|\()(https?:\/\/[^\s]+)/gu
const mentionPattern = /(^|\s|\()@([a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+)/gu
const tagPattern = /(^|\s)[#＃]((?!\ufe0f)[^\s\u00AD\u2060\u200A\u200B\u200C\u200D\u20e2]*[^\d\s\p{P}\u00AD\u2060\u200A\u200B\u200C\u200D\u20e2]+[^\s\u00AD\u2060\u200A\u200B\u200C\u200D\u20e2]*)?/gu

/** Punctuation that ends a sentence rather than a link. */
const trimLink = (uri: string) => uri.replace(/[.,;:!?'")\]]+$/u, "")

/** Every link, mention and hashtag of the text, in order, with its byte range. */
export const detect = (text: string): ReadonlyArray<Found> => {
  const found: Array<Found & { readonly at: number }> = []
  for (const match of text.matchAll(linkPattern)) {
    const start = match.index + match[1]!.length
    const uri = trimLink(match[2]!)
    found.push({ _tag: "Link", at: start, index: range(text, start, start + uri.length), uri })
  }
  for (const match of text.matchAll(mentionPattern)) {
    const start = match.index + match[1]!.length
    const handle = match[2]!
    // A domain's last label is never all digits (an e-mail-like "@1.2" is not a handle).
    if (/\.\d+$/.test(handle)) continue
    found.push({ _tag: "Mention", at: start, index: range(text, start, start + 1 + handle.length), handle: handle.toLowerCase() })
  }
  for (const match of text.matchAll(tagPattern)) {
    const tag = match[2]
    if (tag === undefined) continue
    const start = match.index + match[1]!.length
    const trimmed = tag.replace(/\p{P}+$/u, "")
    // The lexicon allows tags of at most 64 graphemes.
    if (trimmed === "" || graphemes(trimmed) > 64) continue
    found.push({ _tag: "Tag", at: start, index: range(text, start, start + 1 + trimmed.length), tag: trimmed })
  }
  // A hashtag or mention inside a link is part of the link.
  const links = found.filter((item) => item._tag === "Link")
  return found
    .filter((item) =>
      item._tag === "Link" ||
      !links.some((link) => item.index.byteStart >= link.index.byteStart && item.index.byteStart < link.index.byteEnd)
    )
    .sort((a, b) => a.at - b.at)
    .map(({ at: _, ...item }) => item as Found)
}

/** An `app.bsky.richtext.facet` record. */
export interface Facet {
  readonly index: ByteRange
  readonly features: ReadonlyArray<Record<string, string>>
}

/**
 * The facets of what was found; a mention whose handle did not resolve to a DID (`dids` has none) stays
 * plain text, as Bluesky's own client leaves it.
 */
export const facets = (found: ReadonlyArray<Found>, dids: ReadonlyMap<string, string>): ReadonlyArray<Facet> =>
  found.flatMap((item): ReadonlyArray<Facet> => {
    switch (item._tag) {
      case "Link":
        return [{ index: item.index, features: [{ $type: "app.bsky.richtext.facet#link", uri: item.uri }] }]
      case "Tag":
        return [{ index: item.index, features: [{ $type: "app.bsky.richtext.facet#tag", tag: item.tag }] }]
      case "Mention": {
        const did = dids.get(item.handle)
        return did === undefined ? [] : [{ index: item.index, features: [{ $type: "app.bsky.richtext.facet#mention", did }] }]
      }
    }
  })

/** The length rules a text breaks, in words; empty when it may be sent. */
export const lengthProblems = (text: string): ReadonlyArray<string> => [
  ...(graphemes(text) > maxGraphemes ? [`text is ${graphemes(text)} graphemes; the limit is ${maxGraphemes}`] : []),
  ...(bytes(text) > maxBytes ? [`text is ${bytes(text)} bytes; the limit is ${maxBytes}`] : [])
]
