import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { createServer } from "node:http"
import * as SimulatorMedia from "../src/SimulatorMedia.ts"

// A simulator reads a video's length from its movie header, and nothing it cannot trust; and a file it
// fetches, as a network pulling media from a URL does, within its bounds.

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

/** A version 0 movie header: 32-bit times. */
const mvhd0 = (timescale: number, duration: number) => {
  const content = Buffer.alloc(20)
  content.writeUInt32BE(timescale, 12)
  content.writeUInt32BE(duration, 16)
  return box("mvhd", content)
}

/** A 2-second MP4 laid out as a camera writes one: `ftyp`, the media data, then `moov`. */
const fixture = Buffer.concat([
  box("ftyp", Buffer.from("isom"), Buffer.alloc(4), Buffer.from("isomiso2")),
  box("mdat", Buffer.alloc(4096, 7)),
  box("moov", mvhd0(1000, 2000), box("trak"))
])


describe("SimulatorMedia.videoDurationMs", () => {
  it("reads a file's length past its media data", () => {
    assert.strictEqual(SimulatorMedia.videoDurationMs(fixture), 2000)
    assert.strictEqual(SimulatorMedia.videoDurationMs(box("moov", mvhd0(600, 600 * 1200))), 1_200_000)
  })

  it("reads a version 1 header and a 64-bit box size", () => {
    const moov = box("moov", mvhd1(600, 600n * 3600n))
    assert.strictEqual(SimulatorMedia.videoDurationMs(Buffer.concat([box("ftyp", Buffer.from("isom")), moov])), 3_600_000)
    const large = Buffer.alloc(16)
    large.writeUInt32BE(1)
    large.write("free", 4, "latin1")
    large.writeBigUInt64BE(24n, 8)
    assert.strictEqual(SimulatorMedia.videoDurationMs(Buffer.concat([large, Buffer.alloc(8), moov])), 3_600_000)
  })

  it("does not know the length of a file without a header, with a lying size, or saying unknown", () => {
    assert.isUndefined(SimulatorMedia.videoDurationMs(new Uint8Array(0)))
    assert.isUndefined(SimulatorMedia.videoDurationMs(box("ftyp", Buffer.from("isom"))))
    // A box claiming more bytes than there are, one smaller than its header, and a truncated header.
    const lying = Buffer.from(fixture)
    lying.writeUInt32BE(0xffff_fff0, 0)
    assert.isUndefined(SimulatorMedia.videoDurationMs(lying))
    const tiny = Buffer.from(fixture)
    tiny.writeUInt32BE(4, 0)
    assert.isUndefined(SimulatorMedia.videoDurationMs(tiny))
    assert.isUndefined(SimulatorMedia.videoDurationMs(fixture.subarray(0, fixture.length - 40)))
    assert.isUndefined(SimulatorMedia.videoDurationMs(box("moov", mvhd1(0, 10n))))
    assert.isUndefined(SimulatorMedia.videoDurationMs(box("moov", mvhd1(600, 0xffff_ffff_ffff_ffffn))))
    assert.isUndefined(SimulatorMedia.videoDurationMs(box("moov", box("mvhd", Buffer.from([0, 0, 0, 0])))))
  })

  it("stops after a bounded number of boxes", () => {
    const empties = Buffer.concat(Array.from({ length: 1_500 }, () => box("free")))
    assert.isUndefined(SimulatorMedia.videoDurationMs(Buffer.concat([empties, box("moov", mvhd1(1000, 1000n))])))
  })
})

describe("SimulatorMedia.inspect and fetchInspect", () => {
  it("tells MP4 from QuickTime and photos by their first bytes", () => {
    assert.deepStrictEqual(SimulatorMedia.inspect(fixture), { type: "video/mp4", durationMs: 2000 })
    const movie = Buffer.from(fixture)
    movie.write("qt  ", 8, "latin1")
    assert.deepStrictEqual(SimulatorMedia.inspect(movie), { type: "video/quicktime", durationMs: 2000 })
    assert.deepStrictEqual(SimulatorMedia.inspect(Buffer.from([0xff, 0xd8, 0xff, 0xe0])), { type: "image/jpeg", durationMs: undefined })
    assert.deepStrictEqual(SimulatorMedia.inspect(Buffer.from("not media")), { type: undefined, durationMs: undefined })
  })

  it.effect("fetches a file as a network pulling it does, and takes one it cannot fetch or too long as unknown", () =>
    Effect.gen(function*() {
      const big = Buffer.concat([fixture.subarray(0, 24), Buffer.alloc(SimulatorMedia.maxInspectedBytes)])
      const server = yield* Effect.acquireRelease(
        Effect.callback<ReturnType<typeof createServer>>((resume) => {
          const made = createServer((request, response) => {
            if (request.url === "/missing") return void response.writeHead(404).end()
            response.writeHead(200, { "content-type": "video/mp4" })
            response.end(request.url === "/big" ? big : fixture)
          })
          made.listen(0, "127.0.0.1", () => resume(Effect.succeed(made)))
        }),
        (made) => Effect.callback<void>((resume) => void made.close(() => resume(Effect.void)))
      )
      const address = server.address()
      const root = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
      assert.deepStrictEqual(yield* SimulatorMedia.fetchInspect(`${root}/video.mp4`), { type: "video/mp4", durationMs: 2000 })
      assert.deepStrictEqual(yield* SimulatorMedia.fetchInspect(`${root}/big`), { type: "video/mp4", durationMs: undefined })
      assert.deepStrictEqual(yield* SimulatorMedia.fetchInspect(`${root}/missing`), { type: undefined, durationMs: undefined })
      assert.deepStrictEqual(yield* SimulatorMedia.fetchInspect("http://127.0.0.1:1/none"), { type: undefined, durationMs: undefined })
    }).pipe(Effect.scoped))
})
