import { assert, layer } from "@effect/vitest"
import { Cause, Effect, Exit, Fiber, Layer, Option, Stream } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import { NodeServices } from "@effect/platform-node"
import { backends } from "@herald/db/testing"
import { createHash } from "node:crypto"
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import sharp from "sharp"
import { afterAll } from "vitest"
import { Media, Workspaces } from "../src/index.ts"
import { hugePng } from "./fixtures/hugePng.ts"

const dataDir = mkdtempSync(join(tmpdir(), "herald-media-"))
const mediaFolder = join(dataDir, "media")
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))
const limits = { image: 400_000, video: 5_000_000 }

// Real videos, as a phone or an editor would send them: 2 s of 320x240, made with Debian's ffmpeg and
// committed so the tests need no ffmpeg (`ffmpeg -f lavfi -i testsrc=size=320x240:rate=25 -t 2 -pix_fmt
// yuv420p video.mp4`, likewise video.mov). The MP4 puts the `moov` box after the media data (no faststart),
// so reading the header must seek past it.
const video = (extension: "mp4" | "mov") =>
  new Uint8Array(readFileSync(join(import.meta.dirname, "fixtures", `video.${extension}`)))

const image = (format: "jpeg" | "png" | "webp", width: number, height: number, alpha = false) =>
  Effect.promise(() =>
    sharp({
      create: {
        width,
        height,
        channels: alpha ? 4 : 3,
        background: alpha ? { r: 0, g: 0, b: 0, alpha: 0 } : { r: 200, g: 30, b: 30 }
      }
    }).toFormat(format).toBuffer().then((buffer) => new Uint8Array(buffer))
  )

// A stored file's bytes, read back through the service: from the data folder on the embedded database, from
// PostgreSQL's chunks with a server.
const storedBytes = (file: string, start?: number, end?: number) =>
  Effect.gen(function*() {
    const media = yield* Media.Media
    const dot = file.indexOf(".")
    const served = yield* Effect.orDie(media.file(file.slice(0, dot), file.slice(dot + 1)))
    if (Option.isNone(served)) return yield* Effect.die(`${file} is not stored`)
    const parts = yield* Stream.runCollect(served.value.read(start ?? 0, end ?? served.value.bytes - 1)).pipe(Effect.orDie)
    return new Uint8Array(Buffer.concat(parts))
  })

const metadata = (file: string) =>
  Effect.flatMap(storedBytes(file), (bytes) => Effect.promise(() => sharp(bytes).metadata()))

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex")

// Bodies arrive in pieces; 7-byte chunks make the signature straddle several of them.
const body = (bytes: Uint8Array, chunkSize = 64 * 1024) =>
  Stream.fromIterable(Array.from({ length: Math.ceil(bytes.length / chunkSize) }, (_, index) =>
    bytes.subarray(index * chunkSize, (index + 1) * chunkSize)))

const files = () => ({
  stored: readdirSync(mediaFolder).filter((name) => name !== "tmp").sort(),
  inProgress: readdirSync(join(mediaFolder, "tmp"))
})

const rowCounts = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  sql<{ readonly media: number; readonly files: number; readonly chunks: number }>`
    SELECT (SELECT count(*)::int FROM media) AS media, (SELECT count(*)::int FROM media_files) AS files,
      (SELECT count(*)::int FROM media_chunks) AS chunks`)

const workspace = Effect.flatMap(Workspaces.Workspaces, (workspaces) => workspaces.create({ name: "Media" }))

const upload = (contentType: string, bytes: Uint8Array, extra: Partial<Media.UploadInput<never>> = {}) =>
  Effect.gen(function*() {
    const media = yield* Media.Media
    const { id } = yield* workspace
    return yield* media.upload({ workspaceId: id, contentType, body: body(bytes), ...extra })
  })

const leavesNothing = <A, E, R>(attempt: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const before = files()
    const rowsBefore = yield* rowCounts
    const exit = yield* Effect.exit(attempt)
    assert.deepStrictEqual(files(), before)
    assert.deepStrictEqual(files().inProgress, [])
    assert.deepStrictEqual(yield* rowCounts, rowsBefore)
    return exit
  })

const failure = <A, E>(exit: Exit.Exit<A, E>) => {
  assert.isTrue(Exit.isFailure(exit))
  return Exit.isFailure(exit) ? Option.getOrUndefined(Exit.findErrorOption(exit)) : undefined
}

for (const backend of backends()) {
  layer(
    Layer.mergeAll(Media.Media.layer({ dataDir, limits }), Workspaces.Workspaces.layer).pipe(
      Layer.provideMerge(Layer.merge(backend.layer, NodeServices.layer))
    ),
    { excludeTestServices: true }
  )(`Media on ${backend.name}`, (it) => {
    it.effect("stores a JPEG with its EXIF orientation applied and its metadata stripped, plus a preview", () =>
      Effect.gen(function*() {
        const input = yield* Effect.promise(() =>
          sharp({ create: { width: 600, height: 300, channels: 3, background: "red" } })
            .jpeg().withMetadata({ orientation: 6 }).toBuffer()
        )
        const stored = yield* upload("image/jpeg", new Uint8Array(input))
        assert.match(stored.id, /^med_/)
        assert.include(stored, { kind: "image", mimeType: "image/jpeg", width: 300, height: 600, durationMs: null })
        assert.strictEqual(stored.file, `${stored.id}.jpg`)
        assert.strictEqual(stored.previewFile, `${stored.id}.preview.jpg`)
        assert.strictEqual(stored.bytes, (yield* storedBytes(stored.file)).length)
        const saved = yield* metadata(stored.file)
        assert.include(saved, { format: "jpeg", width: 300, height: 600 })
        assert.isUndefined(saved.orientation)
        assert.isUndefined(saved.exif)
        const preview = yield* metadata(stored.previewFile!)
        assert.include(preview, { format: "jpeg", width: 160, height: 320 })
        assert.deepStrictEqual(files().inProgress, [])
        assert.strictEqual(stored.sha256, sha256(new Uint8Array(input)))
        const media = yield* Media.Media
        const { sha256: _received, ...row } = stored
        assert.deepStrictEqual(yield* media.get(stored.workspaceId, stored.id), row)
      }))

    it.effect("converts PNG and WebP to JPEG, flattening transparency onto white", () =>
      Effect.gen(function*() {
        const png = yield* upload("image/png", yield* image("png", 50, 40, true))
        assert.include(png, { mimeType: "image/jpeg", width: 50, height: 40 })
        const saved = yield* storedBytes(png.file)
        const pixels = yield* Effect.promise(() => sharp(saved).raw().toBuffer())
        assert.isTrue([...pixels.subarray(0, 30)].every((value) => value > 245), "transparent became white")
        const webp = yield* upload("image/webp; charset=binary", yield* image("webp", 30, 20))
        assert.include(webp, { mimeType: "image/jpeg", width: 30, height: 20 })
        assert.strictEqual((yield* metadata(webp.file)).format, "jpeg")
      }))

    it.effect("stores MP4 and MOV unchanged, reading duration and size from the file's header", () =>
      Effect.gen(function*() {
        for (const [extension, type] of [["mp4", "video/mp4"], ["mov", "video/quicktime"]] as const) {
          const bytes = video(extension)
          const stored = yield* upload(type, bytes)
          assert.include(stored, { kind: "video", mimeType: type, width: 320, height: 240, bytes: bytes.length })
          assert.approximately(stored.durationMs!, 2000, 50)
          assert.strictEqual(stored.file, `${stored.id}.${extension}`)
          assert.isNull(stored.previewFile)
          assert.deepStrictEqual(yield* storedBytes(stored.file), bytes)
          assert.strictEqual(stored.sha256, sha256(bytes))
        }
      }))

    it.effect("takes video metadata given with the upload over the header", () =>
      Effect.gen(function*() {
        const stored = yield* upload("video/mp4", video("mp4"), { durationMs: 1500, width: 1080, height: 1920 })
        assert.include(stored, { durationMs: 1500, width: 1080, height: 1920 })
      }))

    it.effect("refuses bytes that do not match the Content-Type, and types it does not take", () =>
      Effect.gen(function*() {
        const png = yield* image("png", 10, 10)
        const mismatch = failure(yield* leavesNothing(upload("image/jpeg", png)))
        assert.strictEqual(mismatch?._tag, "MediaInvalid")
        assert.strictEqual(mismatch?.message, "The body is a PNG image, but Content-Type says image/jpeg")
        const gif = failure(yield* leavesNothing(upload("image/gif", new TextEncoder().encode("GIF89a......"))))
        assert.strictEqual(gif?._tag, "MediaInvalid")
        assert.match(gif!.message, /image\/gif is not accepted; send one of image\/jpeg/)
        const text = failure(yield* leavesNothing(upload("video/mp4", new TextEncoder().encode("hello, world!!"))))
        assert.match(text!.message, /not an MP4 video/)
        const empty = failure(yield* leavesNothing(upload("image/png", new Uint8Array(0))))
        assert.match(empty!.message, /empty/)
        // The right signature on a file that is not really one.
        const damaged = new Uint8Array(2000).fill(7)
        damaged.set(png.subarray(0, 16))
        assert.strictEqual(failure(yield* leavesNothing(upload("image/png", damaged)))?._tag, "MediaInvalid")
      }))

    it.effect("refuses a body over the limit, by its declared length or while streaming, and keeps nothing", () =>
      Effect.gen(function*() {
        const jpeg = yield* image("jpeg", 10, 10)
        const big = new Uint8Array(limits.image + 1)
        big.set(jpeg.subarray(0, 16))
        const streamed = failure(yield* leavesNothing(upload("image/jpeg", big)))
        assert.strictEqual(streamed?._tag, "MediaTooLarge")
        assert.match(streamed!.message, /Photos may be at most/)
        const media = yield* Media.Media
        const { id } = yield* workspace
        const declared = yield* leavesNothing(media.upload({
          workspaceId: id,
          contentType: "video/mp4",
          contentLength: limits.video + 1,
          body: Stream.die("the body must not be read")
        }))
        assert.strictEqual(failure(declared)?._tag, "MediaTooLarge")
      }))

    it.effect("keeps nothing from a body cut off mid-stream", () =>
      Effect.gen(function*() {
        const bytes = video("mp4")
        const media = yield* Media.Media
        const { id } = yield* workspace
        const exit = yield* leavesNothing(media.upload({
          workspaceId: id,
          contentType: "video/mp4",
          body: Stream.concat(body(bytes.subarray(0, 5000), 1000), Stream.fail("connection reset" as const))
        }))
        assert.strictEqual(failure(exit), "connection reset")
      }))

    it.effect("finds media only in its own workspace, and serves only stored files", () =>
      Effect.gen(function*() {
        const media = yield* Media.Media
        const stored = yield* upload("image/png", yield* image("png", 12, 12))
        const { id: otherWorkspace } = yield* workspace
        const other = yield* Effect.flip(media.get(otherWorkspace, stored.id))
        assert.strictEqual(other._tag, "MediaNotFound")
        const served = yield* media.file(stored.id, "jpg")
        assert.isTrue(Option.isSome(served))
        assert.include(Option.getOrUndefined(served), { contentType: "image/jpeg", bytes: stored.bytes })
        assert.isTrue(Option.isSome(yield* media.file(stored.id, "preview.jpg")))
        assert.isTrue(Option.isNone(yield* media.file(stored.id, "mp4")))
        assert.isTrue(Option.isNone(yield* media.file("../../etc/passwd", "jpg")))
        assert.isTrue(Option.isNone(yield* media.file(stored.id, "toString")))
      }))

    it.effect("refuses a photo of more than 36 megapixels from its header, naming its size, and keeps nothing", () =>
      Effect.gen(function*() {
        const bomb = hugePng(12_000, 12_000)
        assert.isBelow(bomb.length, 200_000)
        const refused = failure(yield* leavesNothing(upload("image/png", bomb)))
        assert.strictEqual(refused?._tag, "MediaInvalid")
        assert.strictEqual(
          refused?.message,
          "The photo is 12000×12000 pixels (144.0 megapixels); photos may have at most 36.0 megapixels"
        )
        const fits = yield* upload("image/png", hugePng(6_000, 6_000))
        assert.include(fits, { width: 6_000, height: 6_000 })
      }))

    it.effect("converts at most two photos at a time, however many arrive at once", () =>
      Effect.gen(function*() {
        let most = 0
        const sample = Effect.sync(() => {
          most = Math.max(most, sharp.counters().process)
        })
        const sampler = yield* Effect.forkChild(Effect.forever(Effect.andThen(sample, Effect.sleep("2 millis"))))
        const photo = hugePng(4_000, 4_000)
        const stored = yield* Effect.forEach([1, 2, 3, 4], () => upload("image/png", photo), { concurrency: "unbounded" })
        yield* Fiber.interrupt(sampler)
        assert.deepStrictEqual(stored.map((item) => item.width), [4_000, 4_000, 4_000, 4_000])
        assert.isAtLeast(most, 1)
        assert.isAtMost(most, 2)
      }))

    it.effect("serves any byte range of a stored file, across chunk boundaries", () =>
      Effect.gen(function*() {
        // Over two 1 MiB chunks of a database store: noise does not compress, so the file stays this size.
        const noise = new Uint8Array(2_500_000).map((_, index) => (index * 7919 + (index >> 8) * 31) & 0xff)
        const bytes = video("mp4")
        const body = new Uint8Array(bytes.length + noise.length)
        body.set(bytes)
        body.set(noise, bytes.length)
        const stored = yield* upload("video/mp4", body, { durationMs: 1000, width: 320, height: 240 })
        assert.strictEqual(stored.bytes, body.length)
        assert.deepStrictEqual(yield* storedBytes(stored.file), body)
        // With a server, the bytes are in PostgreSQL, where every process reaches them; embedded, in the folder.
        const counts = yield* rowCounts
        if (backend.name === "postgres") {
          assert.notInclude(files().stored, stored.file)
          assert.isAtLeast(counts[0]!.chunks, 3)
        } else {
          assert.include(files().stored, stored.file)
          assert.strictEqual(counts[0]!.chunks, 0)
        }
        for (const [start, end] of [[0, 0], [1_048_570, 1_048_580], [1_000_000, 2_200_000], [body.length - 3, body.length - 1]] as const) {
          assert.deepStrictEqual(yield* storedBytes(stored.file, start, end), body.subarray(start, end + 1), `${start}-${end}`)
        }
      }))

    it.effect("keeps nothing when the media cannot be recorded after its bytes were stored", () =>
      Effect.gen(function*() {
        const media = yield* Media.Media
        // No such workspace: the row is refused by its foreign key, after the photo was converted.
        const refused = yield* leavesNothing(media.upload({
          workspaceId: "ws_00000000000000000missing",
          contentType: "image/png",
          body: body(yield* image("png", 20, 20))
        }))
        // The database refusing is a defect to the caller, which every surface answers as a 500.
        assert.isTrue(Exit.isFailure(refused))
        const defect = Exit.isFailure(refused) ? Cause.squash(refused.cause) : undefined
        assert.isTrue(SqlError.isSqlError(defect))
      }))

    it.effect("removes at start the temporary files of uploads abandoned over an hour ago", () =>
      Effect.gen(function*() {
        const tmp = join(mediaFolder, "tmp")
        writeFileSync(join(tmp, "med_abandoned.upload"), "half a video")
        writeFileSync(join(tmp, "med_inprogress.upload"), "still arriving")
        const twoHoursAgo = new Date(Date.now() - 2 * 3_600_000)
        utimesSync(join(tmp, "med_abandoned.upload"), twoHoursAgo, twoHoursAgo)
        yield* Effect.scoped(Layer.build(Media.Media.layer({ dataDir })))
        assert.deepStrictEqual(readdirSync(tmp), ["med_inprogress.upload"])
        rmSync(join(tmp, "med_inprogress.upload"))
      }))
  })
}
