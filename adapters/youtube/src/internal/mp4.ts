// The length of an MP4 or MOV file, from its movie header (`moov` > `mvhd`: a timescale in units per second
// and a duration in those units), for bytes already in memory. A box's size comes from the file, so each is
// checked against the bytes that hold it: a damaged or hostile size ends the walk instead of steering it,
// and each level looks at `maxBoxes` boxes at most. Anything it cannot read is an unknown length.
// ISO/IEC 14496-12 §4.2 (box header) and §8.2.2 (MovieHeaderBox);
// https://developer.apple.com/documentation/quicktime-file-format/movie_header_atom (read 2026-12-03)

/** Boxes looked at per level: a real file has a handful at the top and in `moov`. */
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

/** The file's length in milliseconds, or undefined when its movie header is absent, damaged or says unknown. */
export const durationMs = (bytes: Uint8Array): number | undefined => {
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
  const unknown = version === 0 ? 0xffff_ffffn : 0xffff_ffff_ffff_ffffn
  if (timescale === 0 || duration === unknown) return undefined
  return Number(duration) * 1000 / timescale
}
