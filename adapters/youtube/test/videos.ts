import { readFileSync } from "node:fs"
import { createServer } from "node:http"
import { assert } from "@effect/vitest"
import { Effect } from "effect"
import { PostVersion } from "@herald/adapter-kit"
import type { AdapterSuite } from "@herald/adapter-kit/testing"

// Real MP4 files of chosen lengths for the YouTube tests, served over HTTP as Herald serves media, and the
// sandbox's control call that verifies a channel.

/** A real 2-second MP4 (its `mdat` before its `moov`). */
export const fixture = readFileSync(new URL("../../../apps/server/test/fixtures/video.mp4", import.meta.url))

/**
 * A copy of the fixture whose movie header (`mvhd`, version 0: timescale at 12 bytes into its content,
 * duration at 16) says `durationMs`. The box is found by its type, checked to say 2 seconds first.
 */
export const withDuration = (durationMs: number): Buffer => {
  const copy = Buffer.from(fixture)
  const type = copy.indexOf("mvhd")
  assert.isAbove(type, 0, "the fixture has a movie header")
  const content = type + 4
  assert.strictEqual(copy.readUInt8(content), 0, "a version 0 movie header")
  const timescale = copy.readUInt32BE(content + 12)
  assert.strictEqual(copy.readUInt32BE(content + 16) / timescale, 2, "the fixture is 2 s long")
  copy.writeUInt32BE(Math.round(durationMs / 1000 * timescale), content + 16)
  return copy
}

/** Serves `bytes` as an MP4 until the scope closes; answers its URL. */
export const serve = (bytes: Uint8Array) =>
  Effect.acquireRelease(
    Effect.callback<ReturnType<typeof createServer>>((resume) => {
      const server = createServer((_request, response) => {
        response.writeHead(200, { "content-type": "video/mp4", "content-length": bytes.length })
        response.end(bytes)
      })
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
    }),
    (server) => Effect.callback<void>((resume) => void server.close(() => resume(Effect.void)))
  ).pipe(Effect.map((server) => {
    const address = server.address()
    return `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/video.mp4`
  }))

/** A video item at `url` of `bytes` bytes whose length Herald knows as `durationMs` (null: unknown). */
export const item = (url: string, bytes: number, durationMs: number | null) =>
  new PostVersion.MediaItem({
    id: "med_long",
    kind: "video",
    mimeType: "video/mp4",
    url,
    bytes,
    width: 1920,
    height: 1080,
    durationMs,
    alt: null
  })

/** Sets a sandbox channel's `longUploadsStatus` through the simulator's control route. */
export const setLongUploads = (context: AdapterSuite.Context, body: Readonly<Record<string, unknown>>) =>
  Effect.promise(async () => {
    const response = await fetch(`${context.baseUrl}/sandbox/youtube/_control/channel`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body)
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  })

/** The adapter's upload calls (opening a session, sending bytes) since `from`, an index in the harness's call log. */
export const uploadsSince = (context: AdapterSuite.Context, from: number) =>
  context.cutter.log.slice(from).filter((call) => call.endsWith(" /upload/youtube/v3/videos"))
