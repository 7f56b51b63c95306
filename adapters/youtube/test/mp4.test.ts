import { assert, describe, it } from "@effect/vitest"
import * as Mp4 from "../src/internal/mp4.ts"
import * as Videos from "./videos.ts"

// The simulator reads an uploaded video's length from its movie header, and nothing it cannot trust.

/** A box: its 32-bit size, its type, its content. */
const box = (type: string, ...content: ReadonlyArray<Uint8Array>) => {
  const body = Buffer.concat(content)
  const header = Buffer.alloc(8)
  header.writeUInt32BE(body.length + 8)
  header.write(type, 4, "latin1")
  return Buffer.concat([header, body])
}

/** A version 1 movie header: 64-bit times. */
const mvhd1 = (timescale: number, duration: bigint) => {
  const content = Buffer.alloc(32)
  content.writeUInt8(1, 0)
  content.writeUInt32BE(timescale, 20)
  content.writeBigUInt64BE(duration, 24)
  return box("mvhd", content)
}

describe("Mp4.durationMs", () => {
  it("reads a real file's length past its media data, and a patched one", () => {
    assert.strictEqual(Mp4.durationMs(Videos.fixture), 2000)
    assert.strictEqual(Mp4.durationMs(Videos.withDuration(20 * 60 * 1000)), 20 * 60 * 1000)
  })

  it("reads a version 1 header and a 64-bit box size", () => {
    const moov = box("moov", mvhd1(600, 600n * 3600n))
    assert.strictEqual(Mp4.durationMs(Buffer.concat([box("ftyp", Buffer.from("isom")), moov])), 3_600_000)
    const large = Buffer.alloc(16)
    large.writeUInt32BE(1)
    large.write("free", 4, "latin1")
    large.writeBigUInt64BE(24n, 8)
    assert.strictEqual(Mp4.durationMs(Buffer.concat([large, Buffer.alloc(8), moov])), 3_600_000)
  })

  it("does not know the length of a file without a header, with a lying size, or saying unknown", () => {
    assert.isUndefined(Mp4.durationMs(new Uint8Array(0)))
    assert.isUndefined(Mp4.durationMs(box("ftyp", Buffer.from("isom"))))
    // A box claiming more bytes than there are, one smaller than its header, and a truncated header.
    const lying = Buffer.from(Videos.fixture)
    lying.writeUInt32BE(0xffff_fff0, 0)
    assert.isUndefined(Mp4.durationMs(lying))
    const tiny = Buffer.from(Videos.fixture)
    tiny.writeUInt32BE(4, 0)
    assert.isUndefined(Mp4.durationMs(tiny))
    assert.isUndefined(Mp4.durationMs(Videos.fixture.subarray(0, Videos.fixture.length - 40)))
    assert.isUndefined(Mp4.durationMs(box("moov", mvhd1(0, 10n))))
    assert.isUndefined(Mp4.durationMs(box("moov", mvhd1(600, 0xffff_ffff_ffff_ffffn))))
    assert.isUndefined(Mp4.durationMs(box("moov", box("mvhd", Buffer.from([0, 0, 0, 0])))))
  })

  it("stops after a bounded number of boxes", () => {
    const empties = Buffer.concat(Array.from({ length: 1_500 }, () => box("free")))
    assert.isUndefined(Mp4.durationMs(Buffer.concat([empties, box("moov", mvhd1(1000, 1000n))])))
  })
})
