import { Effect, Semaphore } from "effect"
import sharp from "sharp"
import { Unreadable } from "./mediaProbe.ts"

/** The longest side of a photo's preview. */
export const previewSize = 320

/**
 * The most pixels a photo may have. No network takes more than about 36 megapixels, and decoding costs
 * memory by pixels, not by file size: a 140 KB PNG can unpack to 576 MB. sharp's own default is 268 MP.
 */
export const maxPixels = 36_000_000

/** Conversions running at once; others wait their turn, so a burst of photos cannot exhaust memory. */
export const conversionsAtOnce = 2

export interface Converted {
  readonly width: number
  readonly height: number
  readonly bytes: number
}

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
      sharp(input, { failOn: "error", limitInputPixels: maxPixels })
        .autoOrient()
        .flatten({ background: "#ffffff" })
        .jpeg({ quality: 88 })
        .toFile(output),
    catch: unreadable
  }).pipe(
    Effect.tap(() =>
      Effect.tryPromise({
        try: () =>
          sharp(output)
            .resize({ width: previewSize, height: previewSize, fit: "inside", withoutEnlargement: true })
            .jpeg({ quality: 75 })
            .toFile(preview),
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
  Effect.tryPromise({ try: () => sharp(input).metadata(), catch: unreadable }).pipe(
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

/**
 * A converter that checks each photo's size and runs at most `conversionsAtOnce` photos through sharp at a
 * time (the header check included, so the bound is on every sharp task of uploads).
 */
export const makeConverter = Effect.map(Semaphore.make(conversionsAtOnce), (semaphore) =>
  (input: string, output: string, preview: string): Effect.Effect<Converted, Unreadable> =>
    semaphore.withPermit(Effect.andThen(checkPixels(input), convertNow(input, output, preview))))
