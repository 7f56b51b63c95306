import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Redacted } from "effect"
import { HttpServer, HttpServerRequest } from "effect/http"
import { HttpApi, HttpApiBuilder } from "effect/http-api"
import { NodeHttpServer, NodeServices } from "@effect/platform-node"
import { ApiError, Authorization, MediaApi } from "@herald/api"
import { Cipher, IdempotencyKeys, Media, SecretKey, Workspaces } from "@herald/core"
import { backends } from "@herald/db/testing"
import { Ids } from "@herald/domain"
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { type IncomingMessage, request as httpRequest } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll } from "vitest"
import { bearerKey } from "../src/http/AuthorizationLive.ts"
import * as ErrorRendering from "../src/http/ErrorRendering.ts"
import * as Idempotency from "../src/http/Idempotency.ts"
import * as MediaFiles from "../src/http/MediaFiles.ts"
import * as MediaHandlers from "../src/http/MediaHandlers.ts"
import * as Http from "../src/Http.ts"
import { eventually } from "../../../testing/eventually.ts"
import * as NodeServer from "../src/internal/nodeServer.ts"
import { PublicUrl } from "../src/PublicUrl.ts"
import { request } from "./request.ts"

// The media group and file route served the way the real server serves them (under `/api/v1`, behind the
// authorization middleware with its Idempotency-Key handling, with the global error rendering), with a
// stand-in middleware whose bearer token is the workspace id.
class TestApi extends HttpApi.make("media-test")
  .add(MediaApi.MediaApi)
  .middleware(Authorization.Authorization)
  .prefix("/api/v1")
{}

const dataDir = mkdtempSync(join(tmpdir(), "herald-media-http-"))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))
const mediaFolder = join(dataDir, "media")
const photoLimit = 100_000

const StandInAuthorization = Layer.effect(
  Authorization.Authorization,
  Effect.map(IdempotencyKeys.IdempotencyKeys, (keys) =>
    Authorization.Authorization.of({
      // The last scheme tried answers; the stand-in reads the bearer "key" as the workspace id.
      bearer: () => Effect.fail(new ApiError.Unauthorized({ message: "tried in session" })),
      session: (httpEffect) => Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
        const workspaceId = Ids.WorkspaceId.make(bearerKey(request))
        return Idempotency.run(
          keys,
          workspaceId,
          Effect.provideService(httpEffect, Authorization.CurrentPrincipal, {
            workspaceId,
            keyId: Ids.ApiKeyId.make("key_0000000000000000test"),
            sessionId: null,
            personId: null,
            memberId: null,
            role: null
          })
        )
      })
    }))
)

const MediaServer = Http.serve(
  Layer.mergeAll(HttpApiBuilder.layer(TestApi), MediaFiles.layer, ErrorRendering.layer).pipe(
    Layer.provide(HttpApiBuilder.group(TestApi, "media", (handlers) => handlers.handle("upload", MediaHandlers.upload).handle("update", MediaHandlers.update))),
    Layer.provide(StandInAuthorization)
  )
).pipe(
  Layer.provideMerge(NodeHttpServer.layer(NodeServer.make, { port: 0, host: "127.0.0.1" })),
  Layer.provideMerge(Layer.mergeAll(
    Media.Media.layer({ dataDir, limits: { image: photoLimit } }),
    Workspaces.Workspaces.layer,
    IdempotencyKeys.IdempotencyKeys.layer,
    Layer.succeed(PublicUrl, "https://herald.example")
  )),
  Layer.provideMerge(Cipher.Cipher.layer.pipe(Layer.provide(Layer.succeed(SecretKey.SecretKey, Redacted.make(new Uint8Array(32).fill(7)))))),
  Layer.provideMerge(backends()[0]!.layer),
  Layer.provide(NodeServices.layer)
)

// Made with Debian's ffmpeg (`-f lavfi -i testsrc=...`) and committed, so the tests need no ffmpeg.
const fixture = (name: string) => new Uint8Array(readFileSync(join(import.meta.dirname, "fixtures", name)))
const jpeg = () => fixture("photo.jpg")
const png = () => fixture("photo.png")
const mp4 = () => fixture("video.mp4")

const base = Effect.map(HttpServer.HttpServer, (server) => HttpServer.formatAddress(server.address))

const newWorkspace = Effect.orDie(
  Effect.flatMap(Workspaces.Workspaces, (workspaces) => workspaces.create({ name: "Media" }))
)

const uploadTo = (workspaceId: string, contentType: string, body: Uint8Array, headers: Record<string, string> = {}) =>
  Effect.flatMap(base, (url) =>
    request(`${url}/api/v1/media`, {
      method: "POST",
      headers: { authorization: `Bearer ${workspaceId}`, "content-type": contentType, ...headers },
      body
    }))

const upload = (contentType: string, body: Uint8Array, query = "") =>
  Effect.gen(function*() {
    const workspace = yield* newWorkspace
    return yield* request(`${yield* base}/api/v1/media${query}`, {
      method: "POST",
      headers: { authorization: `Bearer ${workspace.id}`, "content-type": contentType },
      body
    })
  })

const inProgress = () => readdirSync(join(mediaFolder, "tmp"))

/**
 * A video upload over a socket of its own, its Content-Length announcing `length` bytes, for what no `fetch`
 * sends: a body cut off, or headers alone. The client's own error about a connection that goes away is expected.
 */
const rawVideoUpload = (port: number, workspaceId: string, length: number, onResponse?: (response: IncomingMessage) => void) => {
  const outgoing = httpRequest({
    host: "127.0.0.1",
    port,
    method: "POST",
    path: "/api/v1/media",
    headers: { authorization: `Bearer ${workspaceId}`, "content-type": "video/mp4", "content-length": String(length) }
  }, onResponse)
  outgoing.on("error", () => undefined)
  return outgoing
}

layer(MediaServer, { excludeTestServices: true })("media over HTTP", (it) => {
  it.effect("uploads a photo and serves it with caching headers, validators and byte ranges", () =>
    Effect.gen(function*() {
      const answer = yield* upload("image/jpeg", jpeg())
      assert.strictEqual(answer.status, 200, answer.text)
      const data = answer.body.data
      assert.include(data, { kind: "image", mimeType: "image/jpeg", width: 400, height: 300, durationMs: null })
      assert.strictEqual(data.url, `https://herald.example/media/${data.id}.jpg`)
      assert.strictEqual(data.previewUrl, `https://herald.example/media/${data.id}.preview.jpg`)

      const url = `${yield* base}/media/${data.id}.jpg`
      const whole = yield* request(url)
      assert.strictEqual(whole.status, 200)
      assert.strictEqual(whole.headers.get("content-type"), "image/jpeg")
      assert.strictEqual(whole.headers.get("content-length"), String(data.bytes))
      assert.strictEqual(whole.headers.get("cache-control"), "public, max-age=31536000, immutable")
      // Never sniffed as another type, never run as a page of Herald's origin (issue 28).
      assert.strictEqual(whole.headers.get("x-content-type-options"), "nosniff")
      assert.strictEqual(whole.headers.get("content-security-policy"), "sandbox")
      assert.strictEqual(whole.headers.get("accept-ranges"), "bytes")
      const etag = whole.headers.get("etag")!
      assert.strictEqual(etag, `"${data.id}.jpg"`)
      const stored = new Uint8Array(readFileSync(join(mediaFolder, `${data.id}.jpg`)))

      const part = yield* Effect.promise(() =>
        fetch(url, { headers: { range: "bytes=10-19" } }).then(async (response) => ({
          status: response.status,
          range: response.headers.get("content-range"),
          bytes: new Uint8Array(await response.arrayBuffer())
        }))
      )
      assert.deepStrictEqual(part, { status: 206, range: `bytes 10-19/${data.bytes}`, bytes: stored.subarray(10, 20) })
      const suffix = yield* request(url, { headers: { range: "bytes=-5" } })
      assert.strictEqual(suffix.headers.get("content-range"), `bytes ${data.bytes - 5}-${data.bytes - 1}/${data.bytes}`)

      const outside = yield* request(url, { headers: { range: `bytes=${data.bytes}-` } })
      assert.strictEqual(outside.status, 416)
      assert.strictEqual(outside.headers.get("content-range"), `bytes */${data.bytes}`)
      assert.strictEqual(outside.body.error.code, "invalid")

      assert.strictEqual((yield* request(url, { headers: { "if-none-match": etag } })).status, 304)
      const head = yield* Effect.promise(() =>
        fetch(url, { method: "HEAD" }).then(async (response) => ({
          status: response.status,
          length: response.headers.get("content-length"),
          ranges: response.headers.get("accept-ranges"),
          body: (await response.arrayBuffer()).byteLength
        }))
      )
      assert.deepStrictEqual(head, { status: 200, length: String(data.bytes), ranges: "bytes", body: 0 })
      const preview = yield* request(`${yield* base}/media/${data.id}.preview.jpg`)
      assert.strictEqual(preview.status, 200)
      assert.strictEqual(preview.headers.get("content-type"), "image/jpeg")

      for (const missing of [`${data.id}.mp4`, "med_00000000000000000000.jpg", "..%2F..%2Fetc%2Fpasswd"]) {
        const answer = yield* request(`${yield* base}/media/${missing}`)
        assert.strictEqual(answer.status, 404, missing)
        assert.strictEqual(answer.body.error.code, "not_found")
      }
    }))

  it.effect("reads a video's metadata from the query, or else from the file", () =>
    Effect.gen(function*() {
      const given = yield* upload("video/mp4", mp4(), "?durationMs=1500&width=1080&height=1920")
      assert.strictEqual(given.status, 200, given.text)
      assert.include(given.body.data, { kind: "video", durationMs: 1500, width: 1080, height: 1920, previewUrl: null })
      assert.match(given.body.data.url, /\/media\/med_\w+\.mp4$/)
      const read = yield* upload("video/mp4", mp4())
      assert.include(read.body.data, { durationMs: 2000, width: 320, height: 240 })
    }))

  it.effect("answers bad query values with invalid naming the parameter", () =>
    Effect.gen(function*() {
      for (const query of ["?width=-1", "?durationMs=abc", "?height=1.5"]) {
        const answer = yield* upload("video/mp4", mp4(), query)
        assert.strictEqual(answer.status, 400, query)
        assert.strictEqual(answer.body.error.code, "invalid")
        assert.include(answer.body.error.message, query.slice(1).split("=")[0]!)
      }
    }))

  it.effect("refuses bytes that do not match their type, and types it does not take", () =>
    Effect.gen(function*() {
      const mismatch = yield* upload("image/jpeg", png())
      assert.strictEqual(mismatch.status, 400)
      assert.deepStrictEqual(mismatch.body.error, {
        code: "invalid",
        message: "The body is a PNG image, but Content-Type says image/jpeg"
      })
      const gif = yield* upload("image/gif", new TextEncoder().encode("GIF89a"))
      assert.strictEqual(gif.body.error.code, "invalid")
    }))

  it.effect("refuses a photo over its limit with too_large, keeping nothing", () =>
    Effect.gen(function*() {
      const before = readdirSync(mediaFolder)
      const big = new Uint8Array(photoLimit + 1)
      big.set(jpeg().subarray(0, 16))
      const answer = yield* upload("image/jpeg", big)
      assert.strictEqual(answer.status, 413)
      assert.strictEqual(answer.body.error.code, "too_large")
      assert.match(answer.body.error.message, /Photos may be at most/)
      assert.deepStrictEqual(readdirSync(mediaFolder), before)
    }))

  it.effect("refuses a Content-Length over the video limit before reading the body", () =>
    Effect.gen(function*() {
      const port = Number(new URL(yield* base).port)
      const workspace = yield* Effect.orDie(
        Effect.flatMap(Workspaces.Workspaces, (workspaces) => workspaces.create({ name: "Huge" }))
      )
      const answer = yield* Effect.callback<{ readonly status: number; readonly body: string }>((resume) => {
        const outgoing = rawVideoUpload(port, workspace.id, MediaApi.maxUploadBytes + 1, (response) => {
          let body = ""
          response.on("data", (chunk) => body += chunk)
          response.on("end", () => resume(Effect.succeed({ status: response.statusCode ?? 0, body })))
        })
        outgoing.flushHeaders()
      })
      assert.strictEqual(answer.status, 413)
      assert.strictEqual(JSON.parse(answer.body).error.code, "too_large")
    }))

  it.effect("keeps nothing from an upload whose connection drops mid-body", () =>
    Effect.gen(function*() {
      const before = readdirSync(mediaFolder)
      const port = Number(new URL(yield* base).port)
      const workspace = yield* Effect.orDie(
        Effect.flatMap(Workspaces.Workspaces, (workspaces) => workspaces.create({ name: "Cut" }))
      )
      const video = mp4()
      // Half the announced body; once the upload is under way (its file in tmp), the connection goes away.
      const outgoing = rawVideoUpload(port, workspace.id, video.length)
      yield* Effect.callback<void>((resume) => {
        outgoing.write(video.subarray(0, Math.floor(video.length / 2)), () => resume(Effect.void))
      })
      yield* eventually("the upload's file in tmp", () => inProgress().length > 0)
      outgoing.destroy()
      yield* eventually("the dropped upload's file removed", () => inProgress().length === 0)
      assert.deepStrictEqual(readdirSync(mediaFolder), before)
    }))

  it.effect("replays an upload under its Idempotency-Key only for the same bytes", () =>
    Effect.gen(function*() {
      const workspace = yield* newWorkspace
      const photo = jpeg()
      const key = { "idempotency-key": "upload-once" }
      const first = yield* uploadTo(workspace.id, "image/jpeg", photo, key)
      assert.strictEqual(first.status, 200, first.text)
      const again = yield* uploadTo(workspace.id, "image/jpeg", photo, key)
      assert.strictEqual(again.status, 200)
      assert.strictEqual(again.headers.get("idempotent-replayed"), "true")
      assert.strictEqual(again.body.data.id, first.body.data.id)
      // Another photo of the very same type and length is another request.
      const other = photo.slice()
      other[other.length - 3] = other[other.length - 3]! ^ 0xff
      const refused = yield* uploadTo(workspace.id, "image/jpeg", other, key)
      assert.strictEqual(refused.status, 409, refused.text)
      assert.deepStrictEqual(refused.body.error, {
        code: "conflict",
        message: `Idempotency-Key "upload-once" was used with a different request; use a new key for a new request`
      })
      const longer = yield* uploadTo(workspace.id, "image/jpeg", new Uint8Array([...photo, 0]), key)
      assert.strictEqual(longer.status, 409)
    }))
})
