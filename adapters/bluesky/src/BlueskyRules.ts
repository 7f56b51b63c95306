import { SimulatorRules } from "@herald/adapter-kit"
import type { Library } from "./internal/atproto.ts"
import * as Lexicon from "./internal/lexicon.ts"

/**
 * What a Bluesky PDS refuses of the calls the adapter makes, as the simulator holds it. A record is checked
 * against Bluesky's official lexicons as `@atproto/api` ships them (one rule: the lexicons state the rest);
 * the table's other rules are what lexicon validation cannot state and the PDS checks by hand: a blob's
 * `accept` and `maxSize` (read from the lexicon, which `assertValidRecord` leaves unchecked), the blob as
 * uploaded, the repo as the session's, the upload's encoding and size. Each is answered as the PDS answers
 * it, an XRPC error `{ error, message }` with its status.
 *
 * Sources read 2026-12-03 in bluesky-social/atproto at d6296a1 (Aug 20 2026): its lexicons/ and the PDS's
 * source (packages/pds, packages/xrpc-server); the lexicons the simulator validates against are those of
 * `@atproto/api` 0.21.0, the adapter's dependency.
 */

const atproto = "https://github.com/bluesky-social/atproto/blob/d6296a1"

/** A rule with the XRPC error the PDS answers it with. */
export interface Rule<in Input> extends SimulatorRules.Rule<Input> {
  readonly status: number
  readonly error: string
}

export interface Call<in Input> extends SimulatorRules.Call<Input> {
  readonly rules: ReadonlyArray<Rule<Input>>
}

const call = <Input>(name: string, rules: ReadonlyArray<Rule<Input>>): Call<Input> => SimulatorRules.call<Input, Rule<Input>>(name, rules)

/** The first rule the request breaks, with the PDS's status, error and message; undefined when it keeps them all. */
export const refusal = <Input>(
  of: Call<Input>,
  input: Input
): { readonly status: number; readonly error: string; readonly message: string } | undefined => {
  const broken = SimulatorRules.refusal(of, input)
  const rule = broken === undefined ? undefined : of.rules.find((each) => each === broken.rule)
  return rule === undefined ? undefined : { status: rule.status, error: rule.error, message: broken!.message }
}

/** What the simulator reads of a `com.atproto.repo.uploadBlob`. */
export interface Upload {
  /** The request's `Content-Type`. */
  readonly encoding: string | undefined
  /** The body's bytes: its `Content-Length` before it is read, what was read after (more than `most` when it ran over). */
  readonly bytes: number
  /** The most bytes the sandbox's PDS takes: the largest blob a post may hold (`Lexicon.largestBlob`). */
  readonly most: number
}

export const upload = call<Upload>("com.atproto.repo.uploadBlob", [
  {
    rule: "a `Content-Type` naming the blob's encoding",
    source: `${atproto}/packages/xrpc-server/src/util.ts#L466-L472`,
    status: 400,
    error: "InvalidRequest",
    check: (input) => input.encoding === undefined || input.encoding.trim() === "" ? "Request encoding (Content-Type) required but not provided" : undefined
  },
  {
    rule: "a body of at most the PDS's `blobUploadLimit` (the sandbox's: the largest blob a post may hold, a video's 300,000,000 bytes)",
    source: `${atproto}/packages/pds/src/config/config.ts#L41`,
    status: 413,
    error: "PayloadTooLarge",
    check: (input) => input.bytes > input.most ? "request entity too large" : undefined
  }
])

/** A blob as the PDS keeps it after its upload. */
export interface StoredBlob {
  readonly mimeType: string
  readonly size: number
}

/** What the simulator reads of a `com.atproto.repo.createRecord`. */
export interface Create {
  readonly library: Library
  /** The request's JSON body. */
  readonly body: unknown
  readonly session: { readonly did: string; readonly handle: string }
  /** Whether the PDS has an account of this DID or handle. */
  readonly hasAccount: (repo: string) => boolean
  /** The blob of this CID the session's account uploaded. */
  readonly uploaded: (cid: string) => StoredBlob | undefined
}

/** The collection the sandbox keeps: its other records are outside the table (the simulator refuses them as such). */
export const posts = "app.bsky.feed.post"

/** The body's parts, read leniently (the first rule holds them to the procedure's lexicon). */
const partsOf = (body: unknown) => {
  const value = (typeof body === "object" && body !== null ? body : {}) as { readonly repo?: unknown; readonly collection?: unknown; readonly record?: unknown }
  const record = typeof value.record === "object" && value.record !== null ? value.record as Record<string, unknown> : {}
  return { repo: String(value.repo), collection: String(value.collection), record }
}

/** The record as the PDS takes it: without `$type`, of the collection it is written to. */
export const recordOf = (body: unknown): Record<string, unknown> => {
  const { collection, record } = partsOf(body)
  return { $type: collection, ...record }
}

/** The blobs a post's embed names (none for an embed the sandbox does not know), each with its lexicon rule. */
const blobsOf = (input: Create) => Lexicon.blobsOf(input.library, recordOf(input.body)["embed"]) ?? []

/** The first blob `problem` finds something in, in the words of the record's validation. */
const firstBlob = (input: Create, problem: (blob: Lexicon.NamedBlob & { readonly rule: Lexicon.BlobRule }) => string | undefined) => {
  for (const blob of blobsOf(input)) {
    const found = problem(blob)
    if (found !== undefined) return found
  }
  return undefined
}

const invalidRecord = (problem: string | undefined) => problem === undefined ? undefined : `Invalid ${posts} record: ${problem}`

/** A blob whose `field` the record states otherwise than its upload, in the PDS's words (its `verifyBlob`). */
const asUploaded = (input: Create, field: "mimeType" | "size", name: string) =>
  firstBlob(input, (blob) => {
    const stored = input.uploaded(blob.cid)!
    return stored[field] === blob[field] ? undefined : `Referenced ${name} does not match stored blob. Expected: ${stored[field]}, Got: ${blob[field]}`
  })

const transactor = `${atproto}/packages/pds/src/actor-store/blob/transactor.ts`

export const create = call<Create>("com.atproto.repo.createRecord", [
  {
    rule: "an input valid against the procedure's lexicon (`repo` a DID or handle, `collection` an NSID, `record` an object)",
    source: `${atproto}/lexicons/com/atproto/repo/createRecord.json`,
    status: 400,
    error: "InvalidRequest",
    check: (input) => Lexicon.inputProblem(input.library, "com.atproto.repo.createRecord", input.body)
  },
  {
    rule: "a `repo` naming an account of the PDS",
    source: `${atproto}/packages/pds/src/auth-verifier.ts#L452-L463`,
    status: 403,
    error: "AccountNotFound",
    check: (input) => input.hasAccount(partsOf(input.body).repo) ? undefined : "Account not found"
  },
  {
    rule: "a `repo` that is the session's own account (its DID or handle)",
    source: `${atproto}/packages/pds/src/api/com/atproto/repo/createRecord.ts#L59-L62`,
    status: 401,
    error: "AuthenticationRequired",
    check: (input) => {
      const { repo } = partsOf(input.body)
      return repo === input.session.did || repo === input.session.handle ? undefined : "Authentication Required"
    }
  },
  {
    rule: "a record whose `$type`, when given, is the collection written to",
    source: `${atproto}/packages/pds/src/repo/prepare.ts#L168-L178`,
    status: 400,
    error: "InvalidRequest",
    check: (input) => {
      const { collection, record } = partsOf(input.body)
      return record["$type"] === undefined || record["$type"] === collection
        ? undefined
        : `Invalid $type: expected ${collection}, got ${String(record["$type"])}`
    }
  },
  {
    rule: "a record valid against its lexicon",
    source: "https://www.npmjs.com/package/@atproto/api/v/0.21.0 (its lexicons: app.bsky.feed.post and every lexicon it refers to)",
    status: 400,
    error: "InvalidRequest",
    check: (input) =>
      partsOf(input.body).collection === posts ? invalidRecord(Lexicon.recordProblem(input.library, posts, recordOf(input.body))) : undefined
  },
  {
    rule: "each blob of a MIME type its lexicon property accepts (`app.bsky.embed.images#image`: image/*; `app.bsky.embed.video`: video/mp4)",
    source: `${atproto}/lexicons/app/bsky/embed/images.json and ${atproto}/lexicons/app/bsky/embed/video.json`,
    status: 400,
    error: "InvalidRequest",
    check: (input) => invalidRecord(firstBlob(input, (blob) => Lexicon.blobTypeProblem(blob, blob.rule)))
  },
  {
    rule: "each blob of at most its lexicon property's `maxSize` (an image 2,000,000 bytes, a video 300,000,000)",
    source: `${atproto}/lexicons/app/bsky/embed/images.json and ${atproto}/lexicons/app/bsky/embed/video.json`,
    status: 400,
    error: "InvalidRequest",
    check: (input) => invalidRecord(firstBlob(input, (blob) => Lexicon.blobSizeProblem(blob, blob.rule)))
  },
  {
    rule: "each blob uploaded by the account (`com.atproto.repo.uploadBlob`)",
    source: `${transactor}#L289-L295`,
    status: 400,
    error: "BlobNotFound",
    check: (input) => firstBlob(input, (blob) => input.uploaded(blob.cid) === undefined ? `Could not find blob: ${blob.cid}` : undefined)
  },
  {
    rule: "each blob's `mimeType` as it was uploaded",
    source: `${transactor}#L421-L426`,
    status: 400,
    error: "InvalidMimeType",
    check: (input) => asUploaded(input, "mimeType", "Mimetype")
  },
  {
    rule: "each blob's `size` as it was uploaded",
    source: `${transactor}#L428-L433`,
    status: 400,
    error: "InvalidSize",
    check: (input) => asUploaded(input, "size", "Size")
  }
])

export const rules: SimulatorRules.Table = [upload, create]
