import { Effect } from "effect"

/**
 * What a simulator learns of a media file as its network would: the container its first bytes show and a
 * video's length from its movie header, for bytes it received or a file it fetches from the address it was
 * given (Threads, Instagram and TikTok pull media from a URL). So a simulator refuses a video its network
 * would refuse for its length or its kind, whatever the post said about it.
 */

/** The most of a file a simulator fetches to look at it: a longer one is taken with its length unknown. */
export const maxInspectedBytes = 64 * 1024 * 1024

/** How long a fetch of a file may take before it is taken as unreadable. */
const fetchTimeoutMs = 10_000

export interface Inspected {
  /** `video/mp4`, `video/quicktime`, `image/jpeg`, `image/png`, `image/webp`; undefined when unknown. */
  readonly type: string | undefined
  /** The video's length in milliseconds; undefined for a photo, or when the file does not say. */
  readonly durationMs: number | undefined
}

const unknown: Inspected = { type: undefined, durationMs: undefined }

const ascii = (bytes: Uint8Array, start: number, end: number) =>
  String.fromCharCode(...bytes.subarray(start, Math.min(end, bytes.length)))

// Major brands of an `ftyp` box that mean MP4 (ISO base media); QuickTime says `qt  `.
const mp4Brands = /^(isom|iso\d|mp4\d|avc1|M4V.)$/

/** The file type its first bytes show. */
export const typeOf = (bytes: Uint8Array): string | undefined => {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg"
  if (bytes[0] === 0x89 && ascii(bytes, 1, 4) === "PNG") return "image/png"
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") return "image/webp"
  if (ascii(bytes, 4, 8) !== "ftyp") return undefined
  const brand = ascii(bytes, 8, 12)
  return brand === "qt  " ? "video/quicktime" : mp4Brands.test(brand) ? "video/mp4" : undefined
}

// The movie header: `moov` > `mvhd`, a timescale (units a second) and a duration in those units (ISO/IEC
// 14496-12 §4.2 and §8.2.2; https://developer.apple.com/documentation/quicktime-file-format/movie_header_atom,
// read 2026-12-03). Each box's size comes from the file, so it is checked against the bytes that hold it and
// each level looks at `maxBoxes` boxes at most: a damaged or hostile size ends the walk instead of steering it.
const maxBoxes = 1_000

interface Box {
  /** Where the box's content starts, past its header. */
  readonly content: number
  /** Where the box ends (exclusive). */
  readonly end: number
}

/** The first box of `type` between `start` and `end`, or undefined when none is there or a size is wrong. */
const find = (view: DataView, start: number, end: number, type: string): Box | undefined => {
  let offset = start
  for (let seen = 0; seen < maxBoxes && end - offset >= 8; seen++) {
    const short = view.getUint32(offset)
    // A size of 1 puts a 64-bit size after the type; 0 runs the box to the end of its container.
    if (short === 1 && end - offset < 16) return undefined
    const header = short === 1 ? 16 : 8
    const size = short === 0 ? end - offset : short === 1 ? Number(view.getBigUint64(offset + 8)) : short
    if (size < header || size > end - offset) return undefined
    const name = String.fromCharCode(...[4, 5, 6, 7].map((at) => view.getUint8(offset + at)))
    if (name === type) return { content: offset + header, end: offset + size }
    offset += size
  }
  return undefined
}

/** An MP4 or MOV file's length in milliseconds, or undefined when its movie header is absent, damaged or says unknown. */
export const videoDurationMs = (bytes: Uint8Array): number | undefined => {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const moov = find(view, 0, bytes.byteLength, "moov")
  const mvhd = moov === undefined ? undefined : find(view, moov.content, moov.end, "mvhd")
  if (mvhd === undefined || mvhd.end - mvhd.content < 1) return undefined
  // Version 0 has 32-bit times (timescale at 12, duration at 16), version 1 64-bit ones (20 and 24).
  const version = view.getUint8(mvhd.content)
  const layout = version === 0
    ? { timescale: 12, duration: 16, bytes: 20 }
    : version === 1
    ? { timescale: 20, duration: 24, bytes: 32 }
    : undefined
  if (layout === undefined || mvhd.end - mvhd.content < layout.bytes) return undefined
  const timescale = view.getUint32(mvhd.content + layout.timescale)
  const at = mvhd.content + layout.duration
  const duration = version === 0 ? BigInt(view.getUint32(at)) : view.getBigUint64(at)
  // All ones means the duration is not known.
  const unknownDuration = version === 0 ? 0xffff_ffffn : 0xffff_ffff_ffff_ffffn
  if (timescale === 0 || duration === unknownDuration) return undefined
  return Number(duration) * 1000 / timescale
}

/** What bytes already received show. */
export const inspect = (bytes: Uint8Array): Inspected => {
  const type = typeOf(bytes)
  return { type, durationMs: type?.startsWith("video/") === true ? videoDurationMs(bytes) : undefined }
}

/**
 * Fetches `url` as the network would and inspects it: at most `maxInspectedBytes` are read, within
 * `fetchTimeoutMs`. Never fails: a file that cannot be fetched, or is longer than that, is unknown (the
 * simulator then judges only what it can).
 */
/* eslint-disable no-restricted-syntax, no-restricted-globals -- the simulated network downloads the file from outside Herald, as the network would, with Node's own fetch and no Herald layer */
export const fetchInspect = (url: string): Effect.Effect<Inspected> =>
  Effect.promise(async (signal) => {
    try {
      const response = await fetch(url, { signal: AbortSignal.any([signal, AbortSignal.timeout(fetchTimeoutMs)]) })
      if (!response.ok || response.body === null) return unknown
      const chunks: Array<Uint8Array> = []
      let length = 0
      for await (const chunk of response.body) {
        length += chunk.byteLength
        if (length > maxInspectedBytes) {
          await response.body.cancel().catch(() => undefined)
          return { type: typeOf(chunks[0] ?? chunk), durationMs: undefined }
        }
        chunks.push(chunk)
      }
      const bytes = new Uint8Array(length)
      let offset = 0
      for (const chunk of chunks) {
        bytes.set(chunk, offset)
        offset += chunk.byteLength
      }
      return inspect(bytes)
    } catch {
      return unknown
    }
  })
/* eslint-enable no-restricted-syntax, no-restricted-globals */
