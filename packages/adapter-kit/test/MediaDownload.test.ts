import { assert, describe, it } from "@effect/vitest"
import { NodeHttpClient } from "@effect/platform-node"
import { Effect } from "effect"
import { HttpClient } from "effect/http"
import { createServer, type ServerResponse } from "node:http"
import * as MediaDownload from "../src/MediaDownload.ts"
import type * as PublishError from "../src/PublishError.ts"

// Every answer a media address can give, from a real server, through the one table: what the engine is told
// (retry, wait, or refuse) and what the person reads.

const bound = 100_000
const photo = Buffer.alloc(1_000, 7)

/** What the server saw of each chunked answer: the bytes it wrote, and whether the client read it to the end. */
const written = { bytes: 0, finished: false, closed: false }

const answers: Record<string, (response: ServerResponse) => void> = {
  "/photo.jpg": (response) => void response.writeHead(200, { "content-type": "image/jpeg" }).end(photo),
  "/gone.jpg": (response) => void response.writeHead(404).end(),
  "/deleted.jpg": (response) => void response.writeHead(410).end(),
  "/fault.jpg": (response) => void response.writeHead(500).end(),
  "/busy.jpg": (response) => void response.writeHead(429, { "retry-after": "7" }).end(),
  "/busy-without.jpg": (response) => void response.writeHead(429).end(),
  "/forbidden.jpg": (response) => void response.writeHead(403).end(),
  "/declared.jpg": (response) => void response.writeHead(200, { "content-length": String(bound + 1) }).end(Buffer.alloc(bound + 1)),
  // No length announced: 16 KiB chunks for as long as the client reads, up to 64 MiB.
  "/endless.jpg": (response) => {
    response.writeHead(200, { "content-type": "image/jpeg" })
    const chunk = Buffer.alloc(16 * 1024, 1)
    response.on("close", () => {
      written.closed = true
    })
    response.on("finish", () => {
      written.finished = true
    })
    const more = () => {
      while (written.bytes < 64 * 1024 * 1024) {
        written.bytes += chunk.length
        if (!response.write(chunk)) return void response.once("drain", more)
      }
      response.end()
    }
    more()
  },
  // A length announced, part of the body sent, then the connection dropped.
  "/dropped.jpg": (response) => {
    response.writeHead(200, { "content-length": "10000" })
    response.write(Buffer.alloc(2_000), () => response.socket?.destroy())
  }
}

const served = Effect.acquireRelease(
  Effect.callback<ReturnType<typeof createServer>>((resume) => {
    const made = createServer((request, response) => {
      const answer = answers[new URL(request.url ?? "/", "http://localhost").pathname]
      if (answer === undefined) return void response.writeHead(404).end()
      answer(response)
    })
    made.listen(0, "127.0.0.1", () => resume(Effect.succeed(made)))
  }),
  (made) =>
    Effect.callback<void>((resume) => {
      made.closeAllConnections()
      made.close(() => resume(Effect.void))
    })
)

const withServer = <A, E>(test: (root: string, http: HttpClient.HttpClient) => Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const server = yield* served
    const address = server.address()
    const root = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
    return yield* test(root, yield* HttpClient.HttpClient)
  }).pipe(Effect.scoped, Effect.provide(NodeHttpClient.layerUndici))

const failure = (http: HttpClient.HttpClient, url: string, maxBytes: number | undefined = bound) =>
  Effect.flip(MediaDownload.download(http, "example", url, maxBytes))

const summary = (error: PublishError.PublishError) => [error.reason._tag, error.reason.message, error.retryAfterMs] as const

describe("MediaDownload", () => {
  it.effect("answers the bytes of a 200", () =>
    withServer((root, http) =>
      Effect.gen(function*() {
        const bytes = yield* MediaDownload.download(http, "example", `${root}/photo.jpg`, bound)
        assert.deepStrictEqual(Buffer.from(bytes), photo)
        // No bound given: Herald's own.
        assert.strictEqual((yield* MediaDownload.download(http, "example", `${root}/photo.jpg`, undefined)).length, photo.length)
      })))

  it.effect("refuses a file that is gone (404, 410): retrying cannot bring it back", () =>
    withServer((root, http) =>
      Effect.gen(function*() {
        assert.deepStrictEqual(summary(yield* failure(http, `${root}/gone.jpg?signature=secret`)), [
          "Rejected",
          "the media file /gone.jpg is gone (HTTP 404); attach it again",
          undefined
        ])
        assert.deepStrictEqual(summary(yield* failure(http, `${root}/deleted.jpg`)), [
          "Rejected",
          "the media file /deleted.jpg is gone (HTTP 410); attach it again",
          undefined
        ])
        assert.deepStrictEqual(summary(yield* failure(http, `${root}/forbidden.jpg`)), [
          "Rejected",
          "the media file /forbidden.jpg could not be read (HTTP 403)",
          undefined
        ])
      })))

  it.effect("retries a server fault, and waits as long as a 429's Retry-After says", () =>
    withServer((root, http) =>
      Effect.gen(function*() {
        assert.deepStrictEqual(summary(yield* failure(http, `${root}/fault.jpg`)), [
          "Transient",
          "the media file /fault.jpg could not be read now (HTTP 500)",
          undefined
        ])
        const busy = yield* failure(http, `${root}/busy.jpg`)
        assert.deepStrictEqual(summary(busy), ["RateLimited", "Herald's media server is busy for /busy.jpg (HTTP 429)", 7_000])
        assert.isTrue(busy.retryable)
        assert.strictEqual((yield* failure(http, `${root}/busy-without.jpg`)).reason._tag, "Transient")
      })))

  it.effect("refuses a Content-Length over the bound before reading the body", () =>
    withServer((root, http) =>
      Effect.gen(function*() {
        assert.deepStrictEqual(summary(yield* failure(http, `${root}/declared.jpg`)), [
          "Rejected",
          `the media file /declared.jpg is ${bound + 1} bytes; example takes at most ${bound}`,
          undefined
        ])
      })))

  // The real clock: the wait for the server to see the connection close.
  it.live("stops reading a body without a length once it passes the bound", () =>
    withServer((root, http) =>
      Effect.gen(function*() {
        assert.deepStrictEqual(summary(yield* failure(http, `${root}/endless.jpg`)), [
          "Rejected",
          `the media file /endless.jpg is over ${bound} bytes, the most example takes`,
          undefined
        ])
        // The connection is closed there: the server never gets to write its 64 MiB.
        for (let waited = 0; !written.closed && waited < 100; waited++) yield* Effect.sleep("20 millis")
        assert.isTrue(written.closed)
        assert.isFalse(written.finished)
        assert.isBelow(written.bytes, 64 * 1024 * 1024)
      })))

  it.effect("retries a body cut off mid-way and a server that cannot be reached", () =>
    withServer((root, http) =>
      Effect.gen(function*() {
        const dropped = yield* failure(http, `${root}/dropped.jpg`)
        assert.strictEqual(dropped.reason._tag, "Transient")
        assert.match(dropped.reason.message, /^the media file \/dropped\.jpg was cut off while it was read/)
        const unreachable = yield* failure(http, "http://127.0.0.1:1/photo.jpg")
        assert.strictEqual(unreachable.reason._tag, "Transient")
        assert.match(unreachable.reason.message, /^could not reach Herald's media server for \/photo\.jpg/)
      })))

  it("reads Retry-After as seconds or a date, and keeps the query out of every message", () => {
    assert.strictEqual(MediaDownload.retryAfterMs("120", 0), 120_000)
    assert.strictEqual(MediaDownload.retryAfterMs("Thu, 01 Jan 1970 00:00:30 GMT", 10_000), 20_000)
    assert.isUndefined(MediaDownload.retryAfterMs("soon", 0))
    assert.isUndefined(MediaDownload.retryAfterMs(undefined, 0))
    assert.strictEqual(MediaDownload.pathOf("https://media.example/m/1.jpg?X-Amz-Signature=abc#top"), "/m/1.jpg")
    assert.strictEqual(MediaDownload.toPublishError("x", "not a url", { _tag: "NotAUrl" }).reason._tag, "Rejected")
  })
})
