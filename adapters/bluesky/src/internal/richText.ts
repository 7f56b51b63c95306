import type * as AtprotoApi from "@atproto/api"
import { Effect } from "effect"
import * as Atproto from "./atproto.ts"

/**
 * Bluesky's rich text: a post's text is sent as it is, and its links, mentions and hashtags as facets, ranges
 * given in UTF-8 byte offsets of the text, not JavaScript string indexes
 * (https://docs.bsky.app/docs/advanced-guides/post-richtext). The PDS parses nothing itself: a link with
 * no facet is plain text. Lengths are counted as the app.bsky.feed.post lexicon states them: at most 300
 * graphemes and 3,000 bytes (https://github.com/bluesky-social/atproto/blob/main/lexicons/app/bsky/feed/post.json,
 * `text`'s maxGraphemes and maxLength; test/BlueskyLimits.test.ts holds them to the lexicon).
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

/** An `app.bsky.richtext.facet`: a byte range of the text and what it is (a link, a mention, a tag). */
export type Facet = AtprotoApi.Facet

/**
 * The facets Bluesky's own app gives the text, found by `@atproto/api`'s `RichText` itself: links with or
 * without a scheme (`example.com` is sent as `https://example.com`, a bare domain counting when its last
 * label is a top-level domain), mentions, hashtags and cashtags. A mention holds its handle until `resolve`
 * gives its DID; each handle is resolved once, in lower case (handles are case-insensitive), one after
 * another in the text's order rather than all at once as `RichText.detectFacets` does. A mention that does
 * not resolve stays plain text, as the Bluesky app drops a mention with no DID (`stripInvalidMentions`,
 * https://github.com/bluesky-social/social-app/blob/main/src/lib/strings/rich-text-manip.ts, read 2026-12-03).
 * The app also shortens long links' text before it posts; Herald sends the text as written.
 */
export const facetsOf = <E, R>(text: string, resolve: (handle: string) => Effect.Effect<string | undefined, E, R>) =>
  Effect.gen(function*() {
    const { AppBskyRichtextFacet, RichText } = yield* Atproto.load
    const rich = new RichText({ text })
    rich.detectFacetsWithoutResolution()
    const found = rich.facets ?? []
    const dids = new Map<string, string | undefined>()
    for (const facet of found) {
      for (const feature of facet.features) {
        if (!AppBskyRichtextFacet.isMention(feature)) continue
        const handle = feature.did.toLowerCase()
        if (!dids.has(handle)) dids.set(handle, yield* resolve(handle))
      }
    }
    return found.flatMap((facet): ReadonlyArray<Facet> => {
      const features = facet.features.map((feature) =>
        AppBskyRichtextFacet.isMention(feature) ? { ...feature, did: dids.get(feature.did.toLowerCase()) ?? "" } : feature
      )
      const unresolved = features.some((feature) => AppBskyRichtextFacet.isMention(feature) && feature.did === "")
      return unresolved ? [] : [{ ...facet, features }]
    })
  })

/** The length rules a text breaks, in words; empty when it may be sent. */
export const lengthProblems = (text: string): ReadonlyArray<string> => [
  ...(graphemes(text) > maxGraphemes ? [`text is ${graphemes(text)} graphemes; the limit is ${maxGraphemes}`] : []),
  ...(bytes(text) > maxBytes ? [`text is ${bytes(text)} bytes; the limit is ${maxBytes}`] : [])
]
