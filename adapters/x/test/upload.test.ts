import { assert } from "@effect/vitest"
import { PostVersion } from "@herald/adapter-kit"
import { AdapterSuite } from "@herald/adapter-kit/testing"
import { Effect, Layer, Redacted } from "effect"
import { FetchHttpClient } from "effect/http"
import { XAdapter, XLimits, XSimulator } from "../src/index.ts"

const { upload } = XLimits
const harness = { makeAdapter: XAdapter.make, makeSimulator: XSimulator.simulator }

/** The simulator's address under the harness, and a token of a newly connected account. */
const connected = Effect.gen(function*() {
  const ctx = yield* AdapterSuite.Harness
  const { account } = yield* AdapterSuite.connect(ctx)
  return { ctx, account, root: `${ctx.baseUrl}/sandbox/x`, token: Redacted.value(account.accessToken) }
})

const call = (url: string, token: string, init: RequestInit) =>
  Effect.promise(async () => {
    const response = await fetch(url, { ...init, method: "POST", headers: { ...init.headers, authorization: `Bearer ${token}` } })
    return { status: response.status, body: await response.json() as Record<string, unknown> }
  })

const initialize = (root: string, token: string, totalBytes: number) =>
  call(`${root}/2/media/upload/initialize`, token, {
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ media_type: "video/mp4", total_bytes: totalBytes, media_category: "tweet_video" })
  })

const form = (index: number, bytes: number) => {
  const body = new FormData()
  body.append("segment_index", String(index))
  body.append("media", new Blob([new Uint8Array(bytes)]))
  return { body }
}

const json = (index: number, bytes: number) => ({
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ segment_index: index, media: Buffer.alloc(bytes).toString("base64") })
})

AdapterSuite.withHarness(harness)("x video upload", (it) => {
  it.effect("takes a segment within X's 5 MB chunk limit, as a form or base64 JSON, and refuses one over it", () =>
    Effect.gen(function*() {
      const { root, token } = yield* connected
      const started = yield* initialize(root, token, 12_000_000)
      assert.strictEqual(started.status, 200)
      const append = `${root}/2/media/upload/${(started.body["data"] as { id: string }).id}/append`

      assert.strictEqual((yield* call(append, token, form(0, upload.segmentBytes))).status, 200)
      // 3,000,000 bytes are 4,000,000 in base64.
      assert.strictEqual((yield* call(append, token, json(1, 3_000_000))).status, 200)

      for (const oversized of [form(2, upload.maxChunkBytes + 1), json(2, 3_750_003)]) {
        const refused = yield* call(append, token, oversized)
        assert.strictEqual(refused.status, 400)
        assert.strictEqual(refused.body["type"], "https://api.x.com/2/problems/invalid-request")
        assert.strictEqual(refused.body["detail"], "The media segment must be at most 5000000 bytes.")
      }
      // segment_index runs from 0 to 999.
      assert.strictEqual((yield* call(append, token, form(1_000, 10))).status, 400)
    }))

  it.effect("refuses an upload over the 16 GiB X's initialize takes", () =>
    Effect.gen(function*() {
      const { root, token } = yield* connected
      const refused = yield* initialize(root, token, upload.maxTotalBytes + 1)
      assert.strictEqual(refused.status, 400)
      assert.strictEqual(refused.body["detail"], "total_bytes must be an integer from 0 to 17179869184.")
      assert.strictEqual((yield* initialize(root, token, upload.maxTotalBytes)).status, 200)
    }))

  it.effect("publishes a 12 MB video in segments whose every append request is within X's chunk limit", () =>
    Effect.gen(function*() {
      const { ctx, account, root } = yield* connected
      const video = new Uint8Array(12 * 1024 * 1024).fill(7)
      const mediaUrl = "http://media.test/large.mp4"
      const appends: Array<number> = []
      // The adapter's own HTTP, with each append request measured as it goes out and the video served here.
      const recording: typeof globalThis.fetch = async (input, init) => {
        const request = new Request(input, init)
        if (request.url === mediaUrl) return new Response(video, { headers: { "content-type": "video/mp4" } })
        if (request.url.endsWith("/append")) appends.push((await request.clone().arrayBuffer()).byteLength)
        return fetch(request)
      }
      const adapter = yield* XAdapter.make({
        apiBaseUrl: root,
        authBaseUrl: root,
        webBaseUrl: root,
        clientId: "sandbox-client",
        clientSecret: Redacted.make("sandbox-secret")
      }).pipe(Effect.provide(FetchHttpClient.layer.pipe(Layer.provide(Layer.succeed(FetchHttpClient.Fetch, recording)))))
      const item = new PostVersion.MediaItem({ ...AdapterSuite.media.video(ctx), url: mediaUrl, bytes: video.length })
      const text = `large video ${Date.now()}`
      const published = yield* AdapterSuite.publishToEnd(adapter, { account, post: AdapterSuite.post({ text, media: [item] }) })

      assert.strictEqual(ctx.simulator.state.posts.get(published.id)?.media.length, 1)
      assert.strictEqual(appends.length, 3)
      for (const bytes of appends) assert.isAtMost(bytes, upload.maxChunkBytes)
    }))

  it.effect("refuses in validation a video more than 1,000 segments would carry", () =>
    Effect.gen(function*() {
      const ctx = yield* AdapterSuite.Harness
      const max = XLimits.limits.forms.post.media.maxVideoBytes
      assert.strictEqual(max, upload.maxSegments * upload.segmentBytes)
      const video = new PostVersion.MediaItem({ ...AdapterSuite.media.video(ctx), bytes: max + 1 })
      assert.deepStrictEqual(
        ctx.adapter.validate(AdapterSuite.post({ text: "long", media: [video] })).map((violation) => violation.field),
        ["media"]
      )
    }))
})
