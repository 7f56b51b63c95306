import { assert, layer } from "@effect/vitest"
import { Effect, Exit, Layer, Option, Stream } from "effect"
import { NodeServices } from "@effect/platform-node"
import { Adapter } from "@herald/adapter-kit"
import { ExampleNetwork } from "@herald/adapter-kit/testing"
import { backends } from "@herald/db/testing"
import { randomBytes } from "node:crypto"
import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import sharp from "sharp"
import { afterAll } from "vitest"
import { Media, Networks, Workspaces } from "../src/index.ts"

// Alt text on media and photos fitted to the byte limits of the installed networks (decision 0032), on the
// embedded database (files in the data folder) and on PostgreSQL (files in media_files and media_chunks).

const dataDir = mkdtempSync(join(tmpdir(), "herald-media-fits-"))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

/** A network that takes photos of at most `maxPhotoBytes`; nothing here publishes. */
const network = (key: string, maxPhotoBytes: number) =>
  Adapter.make({
    network: key,
    name: key,
    limits: {
      forms: {
        post: { text: { max: 300, counter: "graphemes" }, media: { minItems: 0, maxItems: 4, maxPhotos: 4, maxVideos: 1, mixing: false, maxPhotoBytes } }
      }
    },
    api: ExampleNetwork.api,
    capabilities: { text: true, photos: true, videos: true, thread: false, firstComment: false, refresh: false, reconcile: false, asyncProcessing: false },
    publish: () => Effect.die("not published here")
  })

// A tight limit the photo breaks, the same limit on a second network (one copy serves both), and a roomy
// one it keeps to (no copy).
const installed = Networks.Networks.layer(Effect.succeed([network("tight", 1_000_000), network("same", 1_000_000), network("roomy", 20_000_000)]))

/** Coloured noise: no JPEG quality makes it small, so fitting has to make it smaller too. */
const noisyPhoto = (width: number, height: number) =>
  Effect.promise(() =>
    sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer()
      .then((buffer) => new Uint8Array(buffer))
  )

const plainPhoto = Effect.promise(() =>
  sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 20, g: 120, b: 200 } } }).jpeg().toBuffer()
    .then((buffer) => new Uint8Array(buffer))
)

const storedBytes = (file: string) =>
  Effect.gen(function*() {
    const media = yield* Media.Media
    const dot = file.indexOf(".")
    const served = yield* Effect.orDie(media.file(file.slice(0, dot), file.slice(dot + 1)))
    if (Option.isNone(served)) return yield* Effect.die(`${file} is not stored`)
    const parts = yield* Stream.runCollect(served.value.read(0, served.value.bytes - 1)).pipe(Effect.orDie)
    return { contentType: served.value.contentType, bytes: new Uint8Array(Buffer.concat(parts)) }
  })

const upload = (contentType: string, bytes: Uint8Array, alt?: string) =>
  Effect.gen(function*() {
    const media = yield* Media.Media
    const { id } = yield* Effect.flatMap(Workspaces.Workspaces, (workspaces) => workspaces.create({ name: "Fits" }))
    return yield* media.upload({ workspaceId: id, contentType, body: Stream.make(bytes), alt })
  })

const failure = <A, E>(exit: Exit.Exit<A, E>) => Exit.isFailure(exit) ? Option.getOrUndefined(Exit.findErrorOption(exit)) : undefined

for (const backend of backends()) {
  layer(
    Layer.mergeAll(Media.Media.layer({ dataDir: join(dataDir, backend.name) }), Workspaces.Workspaces.layer, installed).pipe(
      Layer.provideMerge(Layer.merge(backend.layer, NodeServices.layer))
    ),
    { excludeTestServices: true }
  )(`Media alt text and fitted photos on ${backend.name}`, (it) => {
    it.effect("fits a photo whose JPEG breaks an installed network's byte limit, stores the copy like the photo and serves it", () =>
      Effect.gen(function*() {
        const stored = yield* upload("image/png", yield* noisyPhoto(2400, 1800), "Static, in every colour")
        assert.isAbove(stored.bytes, 1_000_000)
        assert.strictEqual(stored.alt, "Static, in every colour")
        // One copy for the two networks of 1,000,000 bytes, none for the roomy one.
        assert.deepStrictEqual(stored.fitted.map((copy) => [copy.maxBytes, copy.file]), [[1_000_000, `${stored.id}.fit1000000.jpg`]])
        const copy = stored.fitted[0]!
        assert.isAtMost(copy.bytes, 1_000_000)
        const served = yield* storedBytes(copy.file)
        assert.strictEqual(served.contentType, "image/jpeg")
        assert.strictEqual(served.bytes.length, copy.bytes)
        const decoded = yield* Effect.promise(() => sharp(served.bytes).metadata())
        assert.include(decoded, { format: "jpeg", width: copy.width, height: copy.height })
        // Noise stays large at every quality, so the copy is smaller in pixels too, with its shape kept.
        assert.isBelow(copy.width, 2400)
        assert.approximately(copy.width / copy.height, 4 / 3, 0.01)
        assert.strictEqual(copy.quality, 75)
        const media = yield* Media.Media
        const { sha256: _received, ...row } = stored
        assert.deepStrictEqual(yield* media.get(stored.workspaceId, stored.id), row)
      }))

    it.effect("makes no copy of a photo within every limit, nor of a video", () =>
      Effect.gen(function*() {
        const stored = yield* upload("image/jpeg", yield* plainPhoto)
        assert.deepStrictEqual(stored.fitted, [])
        assert.isNull(stored.alt)
        const media = yield* Media.Media
        assert.isTrue(Option.isNone(yield* media.file(stored.id, "fit1000000.jpg")))
      }))

    it.effect("sets, changes and removes alt text; refuses one over 1,500 characters, naming the field", () =>
      Effect.gen(function*() {
        const media = yield* Media.Media
        const stored = yield* upload("image/jpeg", yield* plainPhoto, "   ")
        assert.isNull(stored.alt, "blank alt text is none")
        assert.strictEqual((yield* media.setAlt(stored.workspaceId, stored.id, "A blue square")).alt, "A blue square")
        assert.strictEqual((yield* media.get(stored.workspaceId, stored.id)).alt, "A blue square")
        assert.strictEqual((yield* media.setAlt(stored.workspaceId, stored.id, "é".repeat(1_500))).alt, "é".repeat(1_500))
        const tooLong = failure(yield* Effect.exit(media.setAlt(stored.workspaceId, stored.id, "x".repeat(1_501))))
        assert.deepStrictEqual([tooLong?._tag, tooLong?._tag === "MediaInvalid" ? tooLong.field : undefined], ["MediaInvalid", "alt"])
        assert.strictEqual((yield* media.get(stored.workspaceId, stored.id)).alt, "é".repeat(1_500))
        assert.isNull((yield* media.setAlt(stored.workspaceId, stored.id, null)).alt)
        assert.isNull((yield* media.setAlt(stored.workspaceId, stored.id, "")).alt)
      }))

    it.effect("changes no alt text of an unknown media or one of another workspace", () =>
      Effect.gen(function*() {
        const media = yield* Media.Media
        const stored = yield* upload("image/jpeg", yield* plainPhoto)
        const other = yield* Effect.flatMap(Workspaces.Workspaces, (workspaces) => workspaces.create({ name: "Other" }))
        const elsewhere = failure(yield* Effect.exit(media.setAlt(other.id, stored.id, "mine now")))
        assert.strictEqual(elsewhere?._tag, "MediaNotFound")
        const unknown = failure(yield* Effect.exit(media.setAlt(stored.workspaceId, "med_0000000000000000", "none")))
        assert.strictEqual(unknown?._tag, "MediaNotFound")
        assert.isNull((yield* media.get(stored.workspaceId, stored.id)).alt)
      }))

    it.effect("refuses an upload with alt text over 1,500 characters before storing anything", () =>
      Effect.gen(function*() {
        const folder = join(dataDir, backend.name, "media")
        const before = readdirSync(folder).length
        const refused = failure(yield* Effect.exit(upload("image/jpeg", yield* plainPhoto, "x".repeat(1_501))))
        assert.deepStrictEqual([refused?._tag, refused?.message], ["MediaInvalid", "alt is 1501 characters; the limit is 1500"])
        assert.strictEqual(readdirSync(folder).length, before)
      }))
  })
}
