import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import * as http from "node:http"
import * as https from "node:https"
import type * as net from "node:net"
import * as WebhookHttp from "../src/WebhookHttp.ts"

interface Received {
  readonly rawHeaders: ReadonlyArray<string>
  readonly body: Buffer
}

interface Receiver {
  readonly port: number
  readonly url: string
  readonly connections: () => number
  readonly requests: ReadonlyArray<Received>
}

type Handler = (request: http.IncomingMessage, response: http.ServerResponse, body: Buffer) => void

// A throwaway self-signed certificate for localhost and 127.0.0.1 (valid until 2126), used only to show that
// certificates are verified. Not a secret.
const selfSigned = {
  key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgiUY9Tu9TyWRLVIMD
pbAMd+ZiGnGDGuDUw3r8mnqi3oehRANCAAQ6/tF1vYwZcVCv0Y7jift4Dml4JivW
ZErcXHVU95vopr4YkKc1LlEDL1DuW9f3y0L/mK1ARbUZlnYpuqYD04pg
-----END PRIVATE KEY-----`,
  cert: `-----BEGIN CERTIFICATE-----
MIIBmjCCAUGgAwIBAgIUK6vk+E0Rzn+B/0ALV8XCyS6p24UwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyMjA5MDE0MFoYDzIxMjYxMDI5
MDkwMTQwWjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAAQ6/tF1vYwZcVCv0Y7jift4Dml4JivWZErcXHVU95vopr4YkKc1LlED
L1DuW9f3y0L/mK1ARbUZlnYpuqYD04pgo28wbTAdBgNVHQ4EFgQUIDRMkTDEaFAZ
We4hLhev9/YjV0cwHwYDVR0jBBgwFoAUIDRMkTDEaFAZWe4hLhev9/YjV0cwDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARgglsb2NhbGhvc3SHBH8AAAEwCgYIKoZI
zj0EAwIDRwAwRAIgLoKWNWJv0/Vr3iAJNr8VK/2aIm87Q4DjA56Ouqt5qOQCIF5L
QyEkUSd7GYALsUxjgYKbNkGJggJxACj7FLoFcbQi
-----END CERTIFICATE-----`
}

/** A receiver on loopback (plain HTTP, or HTTPS with the self-signed certificate) for the test's scope. */
const receiver = (handle: Handler, options: { readonly tls?: boolean } = {}) =>
  Effect.acquireRelease(
    Effect.callback<{ readonly server: http.Server; readonly receiver: Receiver }>((resume) => {
      const requests: Array<Received> = []
      let connections = 0
      const onRequest = (request: http.IncomingMessage, response: http.ServerResponse) => {
        const chunks: Array<Buffer> = []
        // The client may hang up first (timeouts, answers cut short): that is expected here.
        response.on("error", () => {})
        request.on("data", (chunk: Buffer) => chunks.push(chunk))
        request.on("end", () => {
          const body = Buffer.concat(chunks)
          requests.push({ rawHeaders: request.rawHeaders, body })
          handle(request, response, body)
        })
      }
      const server = options.tls === true ? https.createServer(selfSigned, onRequest) : http.createServer(onRequest)
      server.on("connection", (socket: net.Socket) => {
        connections++
        socket.on("error", () => {})
      })
      server.on("tlsClientError", () => {})
      server.listen(0, "127.0.0.1", () => {
        const port = (server.address() as net.AddressInfo).port
        resume(Effect.succeed({
          server,
          receiver: {
            port,
            url: `${options.tls === true ? "https" : "http"}://127.0.0.1:${port}`,
            connections: () => connections,
            requests
          }
        }))
      })
    }),
    ({ server }) =>
      Effect.callback<void>((resume) => {
        server.closeAllConnections()
        server.close(() => resume(Effect.void))
      })
  ).pipe(Effect.map(({ receiver }) => receiver))

const answer = (status: number, body = "", headers: http.OutgoingHttpHeaders = {}): Handler => (_request, response) =>
  response.writeHead(status, headers).end(body)

/** A port nothing listens on: opened, then closed. */
const closedPort = Effect.map(
  Effect.scoped(receiver(answer(200))),
  (closed) => closed.port
)

const send = (input: Partial<WebhookHttp.SendInput> & { readonly url: string }) =>
  Effect.gen(function*() {
    const sender = yield* WebhookHttp.WebhookHttp
    return yield* sender.send({ headers: {}, body: "{}", timeoutMs: 10_000, allowPrivate: true, ...input })
  })

const failedWith = (answer: WebhookHttp.Answer) => {
  assert.strictEqual(answer._tag, "Failed")
  return answer._tag === "Failed" ? answer.error : ""
}

// Real sockets and real time: the test clock would stop the deadline from ever passing.
layer(WebhookHttp.WebhookHttp.layer, { excludeTestServices: true })("WebhookHttp", (it) => {
  it.effect("answers with the status and the start of the body", () =>
    Effect.gen(function*() {
      const target = yield* receiver(answer(200, "thanks", { "content-type": "text/plain" }))
      const result = yield* send({ url: `${target.url}/hook` })
      assert.deepInclude(result, { _tag: "Answered", status: 200, bodyStart: "thanks" })
      assert.isAtLeast(result.durationMs, 0)
      assert.strictEqual(target.requests.length, 1)
    }).pipe(Effect.scoped))

  it.effect("answers a 500 as an answer", () =>
    Effect.gen(function*() {
      const target = yield* receiver(answer(500, "boom"))
      assert.deepInclude(yield* send({ url: target.url }), { _tag: "Answered", status: 500, bodyStart: "boom" })
    }).pipe(Effect.scoped))

  it.effect("does not follow a redirect: the 3xx is the answer and its target is never asked", () =>
    Effect.gen(function*() {
      const elsewhere = yield* receiver(answer(200, "followed"))
      for (const status of [301, 302, 307, 308]) {
        const target = yield* receiver(answer(status, "", { location: `${elsewhere.url}/moved` }))
        assert.deepInclude(yield* send({ url: target.url }), { _tag: "Answered", status })
      }
      assert.strictEqual(elsewhere.connections(), 0)
      assert.strictEqual(elsewhere.requests.length, 0)
    }).pipe(Effect.scoped))

  it.effect("fails with a timeout when the answer is slower than the deadline", () =>
    Effect.gen(function*() {
      // Never answered: a timeout is the only way the attempt can end, however slow the machine.
      const target = yield* receiver(() => undefined)
      const result = yield* send({ url: target.url, timeoutMs: 300 })
      assert.strictEqual(failedWith(result), "timed out after 0.3 s")
      assert.isAtLeast(result.durationMs, 250)
    }).pipe(Effect.scoped))

  it.effect("fails with a timeout when the body stalls after the status line", () =>
    Effect.gen(function*() {
      const target = yield* receiver((_request, response) => {
        response.writeHead(200, { "content-length": "100" })
        response.write("only part")
      })
      const result = yield* send({ url: target.url, timeoutMs: 300 })
      assert.strictEqual(failedWith(result), "timed out after 0.3 s")
    }).pipe(Effect.scoped))

  it.effect("fails when the connection is refused", () =>
    Effect.gen(function*() {
      const port = yield* closedPort
      assert.strictEqual(failedWith(yield* send({ url: `http://127.0.0.1:${port}/hook` })), "connection refused")
    }))

  it.effect("reads only the start of a 5 MB answer", () =>
    Effect.gen(function*() {
      // "€" is 3 bytes of UTF-8: the start is counted in characters, not bytes.
      const huge = Buffer.from("€".repeat(Math.ceil((5 * 1024 * 1024) / 3)))
      const target = yield* receiver(answer(200, huge.toString()))
      const result = yield* send({ url: target.url, timeoutMs: 30_000 })
      assert.strictEqual(result._tag, "Answered")
      if (result._tag === "Answered") assert.strictEqual(result.bodyStart, "€".repeat(1_000))
    }).pipe(Effect.scoped))

  it.effect("stops reading an endless answer once it has the start", () =>
    Effect.gen(function*() {
      let written = 0
      const target = yield* receiver((_request, response) => {
        response.writeHead(200, { "content-type": "text/plain" })
        const chunk = Buffer.alloc(64 * 1024, "a")
        const more = () => {
          while (!response.destroyed && response.write(chunk)) written += chunk.byteLength
        }
        response.on("drain", more)
        more()
      })
      // Answered, not timed out: it stopped reading once it had the start (reading on, it would still be at it).
      const result = yield* send({ url: target.url, timeoutMs: 30_000 })
      assert.deepInclude(result, { _tag: "Answered", status: 200, bodyStart: "a".repeat(1_000) })
      assert.isBelow(written, 64 * 1024 * 1024)
    }).pipe(Effect.scoped))

  it.effect("refuses private addresses at connection when they are not allowed: the receiver sees nothing", () =>
    Effect.gen(function*() {
      const target = yield* receiver(answer(200, "should not be reached"))
      const literal = failedWith(yield* send({ url: `http://127.0.0.1:${target.port}/hook`, allowPrivate: false }))
      assert.include(literal, "address refused")
      assert.include(literal, "127.0.0.1, a loopback address")
      // A name goes through the guarded lookup, which judges the address it would dial.
      const named = failedWith(yield* send({ url: `https://localhost:${target.port}/hook`, allowPrivate: false }))
      assert.include(named, "address refused: localhost resolves to")
      assert.include(named, "a loopback address")
      assert.strictEqual(target.connections(), 0)
      assert.strictEqual(target.requests.length, 0)
    }).pipe(Effect.scoped))

  it.effect("delivers the headers and the exact body bytes unchanged", () =>
    Effect.gen(function*() {
      const target = yield* receiver(answer(204))
      const body = new Uint8Array([0x7b, 0x00, 0xff, 0xfe, 0x0a, 0xe2, 0x82, 0xac, 0x7d])
      const headers = {
        "Content-Type": "application/json",
        "webhook-id": "msg_2KWPBgLlAfxdpx2AI54pPJ85f4W",
        "webhook-signature": "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
        "X-Mixed-Case": "Value with  two spaces"
      }
      assert.deepInclude(yield* send({ url: `${target.url}/hook?x=1`, headers, body }), { _tag: "Answered", status: 204 })
      const received = target.requests[0]!
      assert.deepStrictEqual(new Uint8Array(received.body), body)
      for (const [name, value] of Object.entries(headers)) {
        const index = received.rawHeaders.indexOf(name)
        assert.isAtLeast(index, 0, `${name} arrives with its own spelling`)
        assert.strictEqual(received.rawHeaders[index + 1], value)
      }
      yield* send({ url: target.url, body: "héllo" })
      assert.strictEqual(target.requests[1]!.body.toString("utf8"), "héllo")
    }).pipe(Effect.scoped))

  it.effect("verifies TLS certificates", () =>
    Effect.gen(function*() {
      const target = yield* receiver(answer(200, "should not be trusted"), { tls: true })
      assert.strictEqual(failedWith(yield* send({ url: `${target.url}/hook` })), "TLS error: self-signed certificate")
      assert.strictEqual(target.requests.length, 0)
      const plain = yield* receiver(answer(200, "plain"))
      const spoken = failedWith(yield* send({ url: `https://127.0.0.1:${plain.port}/hook` }))
      assert.strictEqual(spoken, "TLS error: wrong version number")
    }).pipe(Effect.scoped))

  it.effect("fails, without sending, on a URL or header it cannot use", () =>
    Effect.gen(function*() {
      assert.include(failedWith(yield* send({ url: "not a url" })), "refused: \"not a url\" is not an absolute URL")
      const target = yield* receiver(answer(200))
      assert.include(
        failedWith(yield* send({ url: target.url, headers: { "bad header": "x" } })),
        "the request could not be made"
      )
      assert.strictEqual(target.requests.length, 0)
    }).pipe(Effect.scoped))
})
