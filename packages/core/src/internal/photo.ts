import { Effect } from "effect"
import sharp from "sharp"
import { Unreadable } from "./mediaProbe.ts"

/** The longest side of a photo's preview. */
export const previewSize = 320

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
export const convert = (input: string, output: string, preview: string): Effect.Effect<Converted, Unreadable> =>
  Effect.tryPromise({
    try: () =>
      sharp(input, { failOn: "error" })
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
