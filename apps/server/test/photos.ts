import { randomBytes } from "node:crypto"
import sharp from "sharp"

// Photos made for a test, so none is committed: a plain one, and one of coloured noise, which no JPEG
// quality makes small, so its JPEG stays far above Bluesky's 2,000,000 bytes and fitting has to make it
// smaller in pixels too.

/** A PNG of coloured noise, `width` × `height`. */
export const noisyPng = (width = 2400, height = 1800): Promise<Uint8Array> =>
  sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer()
    .then((buffer) => new Uint8Array(buffer))

/** A JPEG of one colour. */
export const plainJpeg = (width = 400, height = 300): Promise<Uint8Array> =>
  sharp({ create: { width, height, channels: 3, background: { r: 30, g: 90, b: 60 } } }).jpeg().toBuffer()
    .then((buffer) => new Uint8Array(buffer))
