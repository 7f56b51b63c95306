import { Effect } from "effect"
import type { Library } from "./atproto.ts"

/**
 * A record checked as a PDS checks it (https://github.com/bluesky-social/atproto/blob/main/packages/pds/src/repo/prepare.ts):
 * against Bluesky's official lexicons, as `@atproto/api` ships them, and each blob against the `accept` and
 * `maxSize` of the lexicon property that holds it, which `Lexicons.assertValidRecord` leaves unchecked and
 * the PDS's own validation (@atproto/lex-schema's BlobSchema, strict) refuses. The simulator answers each
 * problem as the PDS does: `InvalidRequest`, `Invalid app.bsky.feed.post record: <problem>`.
 */

/** What a lexicon allows of a blob: its MIME types (`image/*` is any image) and its most bytes. */
export interface BlobRule {
  readonly accept: ReadonlyArray<string>
  readonly maxSize: number
}

/**
 * The rule of a blob property of a lexicon def (`app.bsky.embed.images#image`'s `image`). A def with no such
 * blob bounds nothing (test/BlueskyLimits.test.ts fails first, as it reads the same rules).
 */
export const blobRule = (library: Library, def: string, property: string): BlobRule => {
  const found = library.lexicons.getDefOrThrow(def, ["object"]).properties[property]
  return found?.type === "blob"
    ? { accept: found.accept ?? ["*/*"], maxSize: found.maxSize ?? Number.POSITIVE_INFINITY }
    : { accept: ["*/*"], maxSize: Number.POSITIVE_INFINITY }
}

/** Where a post's embeds hold blobs: the def and property whose rule bounds each. */
const blobHolders = {
  "app.bsky.embed.images": { def: "app.bsky.embed.images#image", property: "image" },
  "app.bsky.embed.video": { def: "app.bsky.embed.video", property: "video" }
} as const

/** The most bytes a blob of a post may have: the largest `maxSize` of the blobs its embeds hold (the video's). */
export const largestBlob = (library: Library): number =>
  Math.max(...Object.values(blobHolders).map((holder) => blobRule(library, holder.def, holder.property).maxSize))

/** A blob as a record names it (`{ $type: "blob", ref: { $link }, mimeType, size }`). */
export interface NamedBlob {
  readonly cid: string
  readonly mimeType: string
  readonly size: number
  /** Where in the request, as the PDS says it: `$.record.embed.images[0].image`. */
  readonly path: string
}

const named = (value: unknown, path: string): NamedBlob => {
  const blob = (value ?? {}) as { ref?: { $link?: unknown }; mimeType?: unknown; size?: unknown }
  return { cid: String(blob.ref?.$link), mimeType: String(blob.mimeType), size: Number(blob.size), path }
}

/** The blobs a post's embed names, each with its rule; undefined for an embed that holds none Herald knows. */
export const blobsOf = (library: Library, embed: unknown): ReadonlyArray<NamedBlob & { readonly rule: BlobRule }> | undefined => {
  const value = (embed ?? {}) as { $type?: unknown; images?: ReadonlyArray<{ image?: unknown }>; video?: unknown }
  if (value.$type === "app.bsky.embed.images") {
    const holder = blobHolders["app.bsky.embed.images"]
    const rule = blobRule(library, holder.def, holder.property)
    return (value.images ?? []).map((image, index) => ({ ...named(image.image, `$.record.embed.images[${index}].image`), rule }))
  }
  if (value.$type === "app.bsky.embed.video") {
    const holder = blobHolders["app.bsky.embed.video"]
    return [{ ...named(value.video, "$.record.embed.video"), rule: blobRule(library, holder.def, holder.property) }]
  }
  return undefined
}

const accepts = (accept: ReadonlyArray<string>, mimeType: string) =>
  accept.some((pattern) => pattern === "*/*" || pattern === mimeType || (pattern.endsWith("/*") && mimeType.startsWith(pattern.slice(0, -1))))

/** `"a"`, or `one of "a", "b" or "c"`. */
const oneOf = (values: ReadonlyArray<string>) => {
  const quoted = values.map((value) => JSON.stringify(value))
  return quoted.length === 1 ? quoted[0]! : `one of ${quoted.slice(0, -1).join(", ")} or ${quoted.at(-1)}`
}

/** A blob of a MIME type its rule does not accept, in @atproto/lex-schema's words (its BlobSchema). */
export const blobTypeProblem = (blob: NamedBlob, rule: BlobRule): string | undefined =>
  accepts(rule.accept, blob.mimeType) ? undefined : `Expected ${oneOf(rule.accept)} (got ${JSON.stringify(blob.mimeType)}) at ${blob.path}.mimeType`

/** A blob larger than its rule's `maxSize`, in @atproto/lex-schema's words. */
export const blobSizeProblem = (blob: NamedBlob, rule: BlobRule): string | undefined =>
  blob.size > rule.maxSize ? `blob too big (maximum ${rule.maxSize}, got ${blob.size}) at ${blob.path}` : undefined

/** The validator's words for what `validate` throws; undefined when it throws nothing. */
const problemOf = (validate: () => unknown): string | undefined =>
  Effect.runSync(Effect.try({ try: validate, catch: (error) => error instanceof Error ? error.message : String(error) }).pipe(
    Effect.match({ onFailure: (problem) => problem, onSuccess: () => undefined })
  ))

/** The lexicon's words for what the record breaks in its collection's lexicon; undefined when it is valid. */
export const recordProblem = (library: Library, collection: string, record: unknown): string | undefined =>
  problemOf(() => library.lexicons.assertValidRecord(collection, library.jsonToLex(record)))

/** The lexicon's words for what a procedure's input breaks (`Input/record must be an object`); undefined when valid. */
export const inputProblem = (library: Library, nsid: string, input: unknown): string | undefined =>
  problemOf(() => library.lexicons.assertValidXrpcInput(nsid, input))
