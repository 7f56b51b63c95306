import { Effect, FileSystem, Schema } from "effect"
import type { Movie } from "mp4box"

/** A file whose contents are not what they claim, or that cannot be read as its type. */
export class Unreadable extends Schema.TaggedError<Unreadable>()("Unreadable", { message: Schema.String }) {}

export type DetectedType = "image/jpeg" | "image/png" | "image/webp" | "video/mp4" | "video/quicktime"

/** How many leading bytes `detect` needs to tell every accepted type apart. */
export const signatureBytes = 12

const ascii = (bytes: Uint8Array, start: number, end: number) =>
  String.fromCharCode(...bytes.subarray(start, Math.min(end, bytes.length)))

// Major brands of the `ftyp` box that mean an MP4 (ISO base media) file; QuickTime files say `qt  `.
const mp4Brands = /^(isom|iso\d|mp4\d|avc1|M4V.)$/

/** The file type the first bytes show (at least `signatureBytes` of them), or undefined for anything else. */
export const detect = (head: Uint8Array): DetectedType | undefined => {
  if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return "image/jpeg"
  if (head[0] === 0x89 && ascii(head, 1, 4) === "PNG") return "image/png"
  if (ascii(head, 0, 4) === "RIFF" && ascii(head, 8, 12) === "WEBP") return "image/webp"
  if (ascii(head, 4, 8) === "ftyp") {
    const brand = ascii(head, 8, 12)
    if (brand === "qt  ") return "video/quicktime"
    if (mp4Brands.test(brand)) return "video/mp4"
  }
  return undefined
}

export interface VideoHeader {
  readonly durationMs: number | null
  readonly width: number | null
  readonly height: number | null
}

// A `moov` box holds the sample tables: a few megabytes even for long videos. Anything far larger is not a
// header worth reading into memory.
const maxHeaderBytes = 64 * 1024 * 1024

interface Box {
  readonly type: string
  readonly offset: number
  readonly size: number
}

/**
 * The duration and display size from an MP4/MOV file's `moov` box. Only the top-level box headers, the
 * `ftyp` box and the `moov` box are read, wherever `moov` sits (before or after the media data), so a large
 * video is never loaded whole.
 */
export const readVideoHeader = (path: string): Effect.Effect<VideoHeader, Unreadable, FileSystem.FileSystem> =>
  Effect.scoped(Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const file = yield* fs.open(path, { flag: "r" })
    const size = Number((yield* file.stat).size)
    const readAt = (offset: number, length: number) =>
      Effect.flatMap(
        Effect.sync(() => new Uint8Array(length)),
        (buffer) => Effect.map(file.read(buffer, { position: BigInt(offset) }), (read) => buffer.subarray(0, read))
      )
    const boxAt = (offset: number) =>
      Effect.map(readAt(offset, 16), (head): Box | undefined => {
        if (head.length < 8) return undefined
        const view = new DataView(head.buffer, head.byteOffset, head.byteLength)
        const short = view.getUint32(0)
        const boxSize = short === 1 && head.length >= 16
          ? Number(view.getBigUint64(8))
          : short === 0
          ? size - offset
          : short
        return boxSize < 8 ? undefined : { type: ascii(head, 4, 8), offset, size: boxSize }
      })

    let ftyp: Box | undefined
    let moov: Box | undefined
    let offset = 0
    while (moov === undefined && offset < size) {
      const box = yield* boxAt(offset)
      if (box === undefined) break
      if (box.type === "ftyp") ftyp = box
      if (box.type === "moov") moov = box
      offset += box.size
    }
    if (ftyp === undefined || moov === undefined) {
      return yield* new Unreadable({ message: "The video has no MP4/MOV header (no moov box)" })
    }
    if (ftyp.size + moov.size > maxHeaderBytes || moov.offset + moov.size > size) {
      return yield* new Unreadable({ message: "The video's MP4/MOV header is damaged or implausibly large" })
    }
    // mp4box reads a stream of boxes: `ftyp` followed directly by `moov` is enough for the movie's info.
    const header = new Uint8Array(ftyp.size + moov.size)
    header.set(yield* readAt(ftyp.offset, ftyp.size), 0)
    header.set(yield* readAt(moov.offset, moov.size), ftyp.size)
    const movie = yield* parseMovie(header)
    return fromMovie(movie)
  }).pipe(
    Effect.catchTag("PlatformError", (error) =>
      Effect.fail(new Unreadable({ message: `The video could not be read: ${error.message}` })))
  ))

// mp4box is imported by the first video rather than when the server starts, like sharp for photos.
const parseMovie = (header: Uint8Array) =>
  Effect.tryPromise({
    try: () =>
      import("mp4box").then(({ createFile, Log, MP4BoxBuffer }) => {
        Log.setLogLevel(Log.error)
        const isoFile = createFile()
        let movie: Movie | undefined
        isoFile.onReady = (info) => {
          movie = info
        }
        const copy = header.slice().buffer
        isoFile.appendBuffer(MP4BoxBuffer.fromArrayBuffer(copy, 0))
        isoFile.flush()
        return movie
      }),
    catch: () => new Unreadable({ message: "The video's MP4/MOV header could not be parsed" })
  }).pipe(
    Effect.flatMap((movie) =>
      movie === undefined
        ? Effect.fail(new Unreadable({ message: "The video's MP4/MOV header could not be parsed" }))
        : Effect.succeed(movie)
    )
  )

const fromMovie = (movie: Movie): VideoHeader => {
  const seconds = movie.timescale > 0 && movie.duration > 0
    ? movie.duration / movie.timescale
    : movie.fragment_duration !== undefined && movie.fragment_duration.den > 0
    ? movie.fragment_duration.num / movie.fragment_duration.den
    : undefined
  const track = movie.videoTracks[0]
  const width = track === undefined ? undefined : track.track_width || track.video?.width
  const height = track === undefined ? undefined : track.track_height || track.video?.height
  // Phones store portrait video as landscape frames plus a 90° matrix; players show it turned, and so must
  // the size checked against networks' aspect-ratio rules.
  const turned = track !== undefined && track.matrix[0] === 0 && track.matrix[1] !== 0
  return {
    durationMs: seconds === undefined ? null : Math.round(seconds * 1000),
    width: (turned ? height : width) ?? null,
    height: (turned ? width : height) ?? null
  }
}
