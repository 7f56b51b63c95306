import { Effect, Semaphore } from "effect"
import type sharp from "sharp"
import { Unreadable } from "./mediaProbe.ts"

/** The longest side of a photo's preview. */
const previewSize = 320

/**
 * The most pixels a photo may have. No network takes more than about 36 megapixels, and decoding costs
 * memory by pixels, not by file size: a 140 KB PNG can unpack to 576 MB. sharp's own default is 268 MP.
 */
const maxPixels = 36_000_000

/** Conversions running at once; others wait their turn, so a burst of photos cannot exhaust memory. */
const conversionsAtOnce = 2

export interface Converted {
  readonly width: number
  readonly height: number
  readonly bytes: number
}

/**
 * Runs `use` with sharp, imported by the first photo rather than when the server starts: sharp and libvips
 * cost a server that converts no photo about 20 MB resident (docs/decisions/0055-idle-memory.md).
 */
const withSharp = <A>(use: (library: typeof sharp) => Promise<A>): Promise<A> =>
  import("sharp").then((module) => use(module.default))

const unreadable = () =>
  new Unreadable({ message: "The photo could not be decoded; it may be damaged or truncated" })

/**
 * Writes the photo at `input` as a JPEG to `output` and a small JPEG preview to `preview`. The EXIF
 * orientation is applied to the pixels (networks differ in whether they honour the tag, and the tag itself is
 * dropped), every piece of metadata is stripped (sharp keeps none unless asked, so no location leaks), and
 * transparency is flattened onto white, since JPEG has none and the default would be black.
 */
const convertNow = (input: string, output: string, preview: string): Effect.Effect<Converted, Unreadable> =>
  Effect.tryPromise({
    try: () =>
      withSharp((sharp) =>
        sharp(input, { failOn: "error", limitInputPixels: maxPixels })
          .autoOrient()
          .flatten({ background: "#ffffff" })
          .jpeg({ quality: 88 })
          .toFile(output)
      ),
    catch: unreadable
  }).pipe(
    Effect.tap(() =>
      Effect.tryPromise({
        try: () =>
          withSharp((sharp) =>
            sharp(output)
              .resize({ width: previewSize, height: previewSize, fit: "inside", withoutEnlargement: true })
              .jpeg({ quality: 75 })
              .toFile(preview)
          ),
        catch: unreadable
      })
    ),
    Effect.map((info) => ({ width: info.width, height: info.height, bytes: info.size }))
  )

const megapixels = (pixels: number) => (pixels / 1_000_000).toFixed(1)

/**
 * The photo's size from its header, before anything is decoded: a photo over `maxPixels` is refused
 * naming its size, whatever its file size.
 */
const checkPixels = (input: string): Effect.Effect<void, Unreadable> =>
  Effect.tryPromise({ try: () => withSharp((sharp) => sharp(input).metadata()), catch: unreadable }).pipe(
    Effect.flatMap(({ width, height }) => {
      const pixels = width * height
      return pixels <= maxPixels ? Effect.void : Effect.fail(
        new Unreadable({
          message: `The photo is ${width}×${height} pixels (${megapixels(pixels)} megapixels); photos may have ` +
            `at most ${megapixels(maxPixels)} megapixels`
        })
      )
    })
  )

/** A JPEG copy of a photo made to fit a byte limit, and how it was made. */
export interface Fitted {
  readonly jpeg: Uint8Array
  readonly width: number
  readonly height: number
  /** The JPEG quality it was encoded at. */
  readonly quality: number
}

/** Qualities tried at the photo's own size, best first, before it is made smaller. */
const fitQualities = [80, 70, 60] as const

/** The quality of downscaled copies: once pixels go, keeping the rest sharp reads better than more pixels. */
const downscaleQuality = 75

const encode = (input: string, quality: number, width?: number) =>
  Effect.tryPromise({
    try: () =>
      withSharp((sharp) => {
        const image = sharp(input, { failOn: "error", limitInputPixels: maxPixels })
        const sized = width === undefined ? image : image.resize({ width, withoutEnlargement: true })
        return sized.jpeg({ quality }).toBuffer({ resolveWithObject: true })
      }),
    catch: unreadable
  }).pipe(Effect.map(({ data, info }) => ({ jpeg: new Uint8Array(data), width: info.width, height: info.height, quality })))

/**
 * The photo at `input` (already a JPEG) as a JPEG of at most `maxBytes`: first at lower qualities
 * (`fitQualities`), then, when even the lowest is too large, made smaller at `downscaleQuality`, its width
 * guessed from how far over the limit the last try was (JPEG size goes roughly with the pixel count) and
 * shrunk again until it fits. None when not even a tiny version fits (a limit of a few bytes).
 */
const fitNow = (input: string, maxBytes: number): Effect.Effect<Fitted | undefined, Unreadable> =>
  Effect.gen(function*() {
    let last: Fitted | undefined
    for (const quality of fitQualities) {
      last = yield* encode(input, quality)
      if (last.jpeg.byteLength <= maxBytes) return last
    }
    let width = last!.width
    let bytes = last!.jpeg.byteLength
    while (width > 16) {
      // 0.95 leaves room for the guess being a little short; each miss shrinks by at least 10 % more.
      width = Math.max(16, Math.floor(width * Math.min(0.9, Math.sqrt(maxBytes / bytes) * 0.95)))
      const next = yield* encode(input, downscaleQuality, width)
      if (next.jpeg.byteLength <= maxBytes) return next
      bytes = next.jpeg.byteLength
    }
    return undefined
  })

/**
 * A converter that checks each photo's size and runs at most `conversionsAtOnce` photos through sharp at a
 * time (the header check included, so the bound is on every sharp task of uploads); and `fit`, under the
 * same bound, for the copies fitted to networks' byte limits.
 */
export const makeConverter = Effect.map(Semaphore.make(conversionsAtOnce), (semaphore) => ({
  convert: (input: string, output: string, preview: string): Effect.Effect<Converted, Unreadable> =>
    semaphore.withPermit(Effect.andThen(checkPixels(input), convertNow(input, output, preview))),
  fit: (input: string, maxBytes: number): Effect.Effect<Fitted | undefined, Unreadable> =>
    semaphore.withPermit(fitNow(input, maxBytes))
}))
