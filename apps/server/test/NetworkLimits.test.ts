import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import sharp from "sharp"
import * as Packages from "../src/Packages.ts"
import * as SandboxConnect from "../src/SandboxConnect.ts"
import { baseUrl, bearer, request, serverLayer, workspaceWithKey } from "./harness.ts"

// A workspace with one sandbox account per network, and an upload helper.
const setup = Effect.gen(function*() {
  const base = yield* baseUrl
  const { key, workspace } = yield* workspaceWithKey()
  const accounts: Record<string, string> = {}
  for (const entry of Packages.all) {
    const account = yield* Effect.orDie(SandboxConnect.connect({ workspaceId: workspace.id, platform: entry.network }))
    accounts[entry.network] = account.id
  }
  const upload = (type: string, body: Uint8Array, query = "") =>
    Effect.map(
      request(`${base}/api/v1/media${query}`, { method: "POST", headers: { ...bearer(key.key), "content-type": type }, body }),
      (answer) => answer.body.data.id as string
    )
  return { accounts, base, key, upload }
})

// Each network's text limit through the API, as a client sends posts, with the seven real adapters in the
// sandbox: the limit passes, the limit + 1 is refused with the network, the limit and the actual size.
layer(serverLayer({}, Packages.all), { excludeTestServices: true })("network limits at the boundary", (it) => {
  it.effect("applies every network's text limit exactly", () =>
    Effect.gen(function*() {
      const { accounts, base, key, upload } = yield* setup
      const photo = yield* upload(
        "image/jpeg",
        yield* Effect.promise(() => sharp({ create: { width: 1080, height: 1080, channels: 3, background: "#fff" } }).jpeg().toBuffer())
      )
      const video = yield* upload(
        "video/mp4",
        new Uint8Array(readFileSync(join(import.meta.dirname, "fixtures", "video.mp4"))),
        "?durationMs=5000&width=1080&height=1920"
      )
      const cases: ReadonlyArray<{ network: string; max: number; unit: string; extra: Record<string, unknown> }> = [
        { network: "x", max: 280, unit: "characters", extra: {} },
        { network: "threads", max: 500, unit: "characters", extra: {} },
        { network: "linkedin", max: 3000, unit: "characters", extra: {} },
        { network: "facebook", max: 63206, unit: "characters", extra: {} },
        { network: "instagram", max: 2200, unit: "characters", extra: { mediaIds: [photo] } },
        { network: "tiktok", max: 2200, unit: "characters", extra: { mediaIds: [video] } },
        { network: "youtube", max: 5000, unit: "bytes", extra: { mediaIds: [video], youtubeTitle: "A title" } }
      ]
      for (const { extra, max, network, unit } of cases) {
        const send = (content: string) =>
          request(`${base}/api/v1/posts`, {
            method: "POST",
            headers: { ...bearer(key.key), "content-type": "application/json" },
            body: JSON.stringify({ content, accountIds: [accounts[network]], draft: true, ...extra })
          })
        const atLimit = yield* send("a".repeat(max))
        assert.strictEqual(atLimit.status, 200, `${network}: ${atLimit.text.slice(0, 300)}`)
        const over = yield* send("a".repeat(max + 1))
        assert.strictEqual(over.status, 400, network)
        assert.strictEqual(over.body.error.message, `${network}: text is ${max + 1} ${unit}; the limit is ${max}`)
      }
    }))

  it.effect("applies every network's media limits exactly: counts, kinds, mixing, aspect ratio, durations, video types", () =>
    Effect.gen(function*() {
      const { accounts, base, key, upload } = yield* setup
      const jpeg = (width: number, height: number) =>
        Effect.flatMap(
          Effect.promise(() => sharp({ create: { width, height, channels: 3, background: "#fff" } }).jpeg().toBuffer()),
          (bytes) => upload("image/jpeg", bytes)
        )
      const videoBytes = new Uint8Array(readFileSync(join(import.meta.dirname, "fixtures", "video.mp4")))
      const video = (durationMs: number) => upload("video/mp4", videoBytes, `?durationMs=${durationMs}&width=1080&height=1920`)
      const square = yield* jpeg(1080, 1080)
      const tall = yield* jpeg(1080, 1351) // just taller than 4:5
      const clip = yield* video(5_000)
      const send = (network: string, fields: Record<string, unknown>) =>
        request(`${base}/api/v1/posts`, {
          method: "POST",
          headers: { ...bearer(key.key), "content-type": "application/json" },
          body: JSON.stringify({ content: "media", accountIds: [accounts[network]], draft: true, ...fields })
        })
      const photos = (count: number) => Array.from({ length: count }, () => square)
      const cases: ReadonlyArray<readonly [string, Record<string, unknown>, Record<string, unknown>, string]> = [
        ["x", { mediaIds: photos(4) }, { mediaIds: photos(5) }, "x: 5 photos attached; the limit is 4"],
        ["x", { mediaIds: [clip] }, { mediaIds: [square, clip] }, "x: photos and videos cannot be mixed in one post"],
        ["instagram", { mediaIds: photos(10) }, { mediaIds: photos(11) }, "instagram: 11 photos attached; the limit is 10"],
        ["threads", { mediaIds: photos(20) }, { mediaIds: photos(21) }, "threads: 21 photos attached; the limit is 20"],
        ["linkedin", { mediaIds: photos(20) }, { mediaIds: photos(21) }, "linkedin: 21 photos attached; the limit is 20"],
        ["facebook", { mediaIds: photos(10) }, { mediaIds: photos(11) }, "facebook: 11 photos attached; the limit is 10"],
        ["tiktok", { mediaIds: photos(35) }, { mediaIds: photos(36) }, "tiktok: 36 photos attached; the limit is 35"],
        ["youtube", { mediaIds: [clip], youtubeTitle: "t".repeat(100) }, { mediaIds: [clip], youtubeTitle: "t".repeat(101) },
          "youtube: title is 101 characters; the limit is 100"]
      ]
      for (const [network, ok, over, message] of cases) {
        const passes = yield* send(network, ok)
        assert.strictEqual(passes.status, 200, `${network}: ${passes.text.slice(0, 300)}`)
        const refused = yield* send(network, over)
        assert.strictEqual(refused.status, 400, network)
        assert.include(refused.body.error.message, message)
      }
      const aspect = yield* send("instagram", { mediaIds: [tall] })
      assert.strictEqual(aspect.status, 400)
      assert.include(aspect.body.error.message, "instagram: photo 1 is")
      const storyOk = yield* send("instagram", { mediaIds: [yield* video(60_000)], instagramFormat: "story" })
      assert.strictEqual(storyOk.status, 200, storyOk.text.slice(0, 300))
      const storyLong = yield* send("instagram", { mediaIds: [yield* video(60_001)], instagramFormat: "story" })
      assert.strictEqual(storyLong.status, 400)
      assert.include(storyLong.body.error.message, "instagram: video 1 is")
      const tiktokShort = yield* send("tiktok", { mediaIds: [yield* video(2_999)] })
      assert.include(tiktokShort.body.error.message, "tiktok: video 1 is")
      const noVideo = yield* send("youtube", { mediaIds: [square], youtubeTitle: "t" })
      assert.strictEqual(noVideo.status, 400)
      // Issue 31: Threads takes videos of at most 5 minutes; LinkedIn and Bluesky take MP4 only (a MOV is the same file
      // under QuickTime's brand).
      const fiveMinutes = yield* send("threads", { mediaIds: [yield* video(300_000)] })
      assert.strictEqual(fiveMinutes.status, 200, fiveMinutes.text.slice(0, 300))
      const sixMinutes = yield* send("threads", { mediaIds: [yield* video(360_000)] })
      assert.strictEqual(sixMinutes.status, 400)
      assert.include(sixMinutes.body.error.message, "threads: video 1 is 360.0 s long; allowed up to 5 min")
      const mov = videoBytes.slice()
      mov.set(new TextEncoder().encode("qt  "), 8)
      const movie = yield* upload("video/quicktime", mov, "?durationMs=5000&width=1080&height=1920")
      const quicktime = yield* send("linkedin", { mediaIds: [movie] })
      assert.strictEqual(quicktime.status, 400)
      assert.include(quicktime.body.error.message, "linkedin: video 1 is video/quicktime; allowed video/mp4")
      const onBluesky = yield* send("bluesky", { mediaIds: [movie] })
      assert.strictEqual(onBluesky.status, 400)
      assert.include(onBluesky.body.error.message, "bluesky: video 1 is video/quicktime; allowed video/mp4")
      assert.strictEqual((yield* send("x", { mediaIds: [movie] })).status, 200)
      const branded = yield* send("tiktok", { mediaIds: [clip], tiktok: { brandedContent: true, privacy: "SELF_ONLY" } })
      assert.include(branded.body.error.message, "tiktok: branded content cannot be private (SELF_ONLY)")
    }))
})
