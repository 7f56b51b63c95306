import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import sharp from "sharp"
import * as Packages from "../src/Packages.ts"
import * as SandboxConnect from "../src/SandboxConnect.ts"
import { baseUrl, bearer, request, serverLayer, workspaceWithKey } from "./harness.ts"

// Each network's text limit through the API, as a client sends posts, with the seven real adapters in the
// sandbox: the limit passes, the limit + 1 is refused with the network, the limit and the actual size.
layer(serverLayer({}, Packages.all), { timeout: 180_000, excludeTestServices: true })("network limits at the boundary", (it) => {
  it.effect("applies every network's text limit exactly", () =>
    Effect.gen(function*() {
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
})
