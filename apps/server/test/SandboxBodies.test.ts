import { assert, describe, it, layer } from "@effect/vitest"
import { Effect } from "effect"
import { request as httpRequest } from "node:http"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { ExampleNetwork } from "@herald/adapter-kit/testing"
import * as Packages from "../src/Packages.ts"
import * as SandboxBodies from "../src/SandboxBodies.ts"
import { baseUrl, examplePackage, serverLayer } from "./harness.ts"
import { settled, setup, simulated } from "./publishing.ts"

// Issue 31, point 7: the server's 1 MiB JSON limit applied to the sandbox's simulators too, so a newcomer's
// first video post (12 MB) failed on every network that takes the file in the request. The simulators'
// routes take what their network takes for an upload, up to the sandbox's cap; the API keeps 1 MiB.

const videoBytes = 12_000_000

/** The 4 s test video padded to 12 MB with a `free` box, which MP4 readers skip. */
const twelveMegabyteVideo = () => {
  const video = readFileSync(join(import.meta.dirname, "fixtures", "video-4s.mp4"))
  const padding = Buffer.alloc(videoBytes - video.length)
  padding.writeUInt32BE(padding.length, 0)
  padding.write("free", 4, "ascii")
  return Buffer.concat([video, padding])
}

interface RawAnswer {
  readonly status: number
  readonly headers: Record<string, string | ReadonlyArray<string> | undefined>
  readonly body: any
}

/**
 * A request over a plain socket: `declaredLength` is announced and only `sent` is written, so a refusal that
 * comes before the body is read answers while the rest was never sent. Without `declaredLength` the body is
 * chunked, of no length announced.
 */
const raw = (url: string, options: { readonly method: string; readonly sent: Uint8Array; readonly declaredLength?: number }) =>
  Effect.callback<RawAnswer>((resume) => {
    const outgoing = httpRequest(url, {
      method: options.method,
      headers: {
        "content-type": "application/octet-stream",
        ...(options.declaredLength === undefined ? {} : { "content-length": String(options.declaredLength) })
      }
    }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8")
        let body: unknown = undefined
        try {
          body = JSON.parse(text)
        } catch {
          body = text
        }
        outgoing.destroy()
        resume(Effect.succeed({ status: response.statusCode ?? 0, headers: response.headers, body }))
      })
    })
    // The server may close the connection before the body is all sent; the answer is what counts.
    outgoing.on("error", () => {})
    outgoing.write(options.sent)
    if (options.declaredLength === undefined) outgoing.end()
  })

describe("SandboxBodies.limitOf", () => {
  const limitOf = (network: string) => {
    const entry = Packages.all.find((item) => item.network === network)!
    return SandboxBodies.limitOf(entry.readme!.limits)
  }

  it("takes a network's largest file, as base64 and with the JSON around it, up to the sandbox's cap", () => {
    // Networks whose files are larger than the cap are held to it.
    for (const network of ["x", "youtube", "linkedin", "bluesky", "mastodon", "tiktok"]) {
      assert.strictEqual(limitOf(network), SandboxBodies.maxBodyBytes, network)
    }
    // 10 MiB photos: 4/3 of them and the 1 MiB a JSON body may take.
    assert.strictEqual(limitOf("facebook"), Math.ceil(10 * 1024 * 1024 * 4 / 3) + 1024 * 1024)
    // A network that declares no file size takes what a JSON body takes.
    assert.strictEqual(SandboxBodies.limitOf(ExampleNetwork.limits), 1024 * 1024)
  })
})

layer(serverLayer({}, [...Packages.all, examplePackage]), { excludeTestServices: true })("sandbox request bodies", (it) => {
  it.effect("a 12 MB video post goes out in the sandbox to YouTube, LinkedIn and X", () =>
    Effect.gen(function*() {
      const platforms = ["youtube", "linkedin", "x"]
      const { accounts, base, create, get, key } = yield* setup(platforms)
      const uploaded = yield* Effect.promise(() =>
        fetch(`${base}/api/v1/media`, {
          method: "POST",
          headers: { authorization: `Bearer ${key.key}`, "content-type": "video/mp4" },
          body: twelveMegabyteVideo()
        }).then((response) => response.json() as Promise<any>)
      )
      assert.strictEqual(uploaded.data?.bytes, videoBytes, JSON.stringify(uploaded))
      const created = yield* create({
        content: "My first video",
        mediaIds: [uploaded.data.id],
        youtubeTitle: "My first video",
        accountIds: platforms.map((platform) => accounts[platform]),
        publishNow: true
      })
      const post = yield* settled(get, created.id)
      for (const target of post.targets) {
        assert.strictEqual(target.status, "published", `${target.platform}: ${target.error}`)
      }
      // YouTube took the whole file in one PUT.
      const [video] = yield* simulated("youtube", accounts.youtube!)
      assert.deepStrictEqual(video!.media, [`video/mp4, ${videoBytes} bytes`])
    }), 60_000)

  it.effect("a JSON API route still refuses a body over 1 MiB with 413 in the reference's error shape", () =>
    Effect.gen(function*() {
      const { send } = yield* setup([])
      const answer = yield* send("POST", "/posts", { content: "x".repeat(1024 * 1024 + 1), accountIds: [] })
      assert.strictEqual(answer.status, 413, answer.text.slice(0, 200))
      assert.deepStrictEqual(answer.body, {
        error: { code: "too_large", message: "The request body is too large" }
      })
    }))

  it.effect("a simulator's body announced over its network's limit is refused with 413 before it is read", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      const answer = yield* raw(`${base}/sandbox/youtube/upload/youtube/v3/videos?uploadType=resumable&upload_id=none`, {
        method: "PUT",
        declaredLength: SandboxBodies.maxBodyBytes + 1,
        sent: new Uint8Array(1024)
      })
      assert.strictEqual(answer.status, 413, JSON.stringify(answer.body))
      assert.strictEqual(answer.body.error.code, "too_large")
      assert.include(answer.body.error.message, `${SandboxBodies.maxBodyBytes} bytes`)
      // The rest of the body is not wanted: the connection closes instead of reading it.
      assert.strictEqual(answer.headers["connection"], "close")
    }))

  it.effect("a body of no announced length over its network's limit is refused with 413 while it is read", () =>
    Effect.gen(function*() {
      const base = yield* baseUrl
      // The example network declares no file size: its simulator takes what a JSON body takes, 1 MiB.
      const answer = yield* raw(`${base}/sandbox/example/posts`, { method: "POST", sent: new Uint8Array(2 * 1024 * 1024) })
      assert.strictEqual(answer.status, 413, JSON.stringify(answer.body))
      assert.strictEqual(answer.body.error.code, "too_large")
      assert.include(answer.body.error.message, `${1024 * 1024} bytes`)
    }))
})
