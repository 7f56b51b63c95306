import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { HttpServer } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { NodeHttpServer } from "@effect/platform-node"
import { connect } from "node:net"
import * as ErrorRendering from "../src/http/ErrorRendering.ts"
import * as Http from "../src/Http.ts"
import * as NodeServer from "../src/internal/nodeServer.ts"
import { patience } from "../../../vitest.shared.ts"

// What Node answers below Effect (apps/server/src/internal/nodeServer.ts), over raw sockets because no HTTP
// client sends these requests: a body that stops arriving, headers too large, a request that is not HTTP.
// Every answer is in the error shape and the connection is closed.

class Probe extends HttpApiGroup.make("probe").add(
  HttpApiEndpoint.post("echo", "/probe/echo", {
    payload: Schema.Struct({ name: Schema.String }),
    success: Schema.Struct({ data: Schema.Struct({ name: Schema.String }) })
  })
) {}
class ProbeApi extends HttpApi.make("probe").add(Probe) {}

const ProbeHandlers = HttpApiBuilder.group(ProbeApi, "probe", (handlers) =>
  handlers.handle("echo", ({ payload }) => Effect.succeed({ data: { name: payload.name } })))

// Herald's waits (10 s each by default) shortened; the answers and their shape are the same.
const bodyIdleMs = 1_000
const headersTimeoutMs = 1_000

const ProbeServer = Http.serve(
  Layer.mergeAll(HttpApiBuilder.layer(ProbeApi), ErrorRendering.layer).pipe(Layer.provide(ProbeHandlers))
).pipe(Layer.provideMerge(NodeHttpServer.layer(() => NodeServer.make({ bodyIdleMs, headersTimeoutMs }), { port: 0, host: "127.0.0.1" })))

interface RawAnswer {
  readonly status: number
  readonly head: string
  readonly body: any
  readonly elapsedMs: number
}

/**
 * Writes `chunks` to a fresh connection (each after its delay) and reads until the server closes it, or gives
 * up after the test's patience (status 0: no answer). Node's own limits are longer (60 s for headers, 300 s
 * for a request), so an answer means Herald's did it.
 */
const raw = (chunks: ReadonlyArray<readonly [delayMs: number, text: string]>, giveUpMs = patience) =>
  Effect.flatMap(HttpServer.HttpServer, (server) =>
    Effect.callback<RawAnswer>((resume) => {
      const url = new URL(HttpServer.formatAddress(server.address))
      const started = performance.now()
      const socket = connect(Number(url.port), url.hostname)
      let received = ""
      const timers: Array<NodeJS.Timeout> = []
      const finish = () => {
        for (const timer of timers) clearTimeout(timer)
        socket.destroy()
        const [head = "", body = ""] = received.split("\r\n\r\n", 2)
        let parsed: unknown = undefined
        try {
          parsed = JSON.parse(body)
        } catch {
          parsed = undefined
        }
        resume(Effect.succeed({
          status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0),
          head,
          body: parsed,
          elapsedMs: performance.now() - started
        }))
      }
      socket.on("data", (data) => received += data.toString("latin1"))
      socket.on("close", finish)
      socket.on("error", () => {})
      let at = 0
      for (const [delayMs, text] of chunks) {
        at += delayMs
        timers.push(setTimeout(() => socket.write(text), at))
      }
      timers.push(setTimeout(finish, giveUpMs))
    }))

const post = (length: number) =>
  `POST /probe/echo HTTP/1.1\r\nHost: herald\r\nContent-Type: application/json\r\nConnection: close\r\nContent-Length: ${length}\r\n\r\n`

layer(ProbeServer)("node server", (it) => {
  it.effect("cuts off a body that stops arriving within seconds, with 408 in the error shape", () =>
    Effect.gen(function*() {
      const answer = yield* raw([[0, post(100) + `{"name":`]])
      assert.strictEqual(answer.status, 408, answer.head)
      assert.strictEqual(answer.body?.error?.code, "invalid")
      assert.include(answer.body.error.message, "stopped arriving")
      assert.match(answer.head, /x-request-id: req_/)
      // Not before the body has been idle that long (however much later a loaded machine looks).
      assert.isAtLeast(answer.elapsedMs, bodyIdleMs - 100)
    }))

  it.effect("waits for a slow body that keeps coming", () =>
    Effect.gen(function*() {
      const body = `{"name":"${"x".repeat(40)}"}`
      const pieces = body.match(/.{1,6}/g)!.map((piece, index) => [index === 0 ? 0 : 400, piece] as const)
      const answer = yield* raw([[0, post(body.length)], ...pieces, [400, ""]])
      assert.strictEqual(answer.status, 200, answer.head)
      assert.isAtLeast(answer.elapsedMs, bodyIdleMs * 2)
    }))

  it.effect("answers headers that stop arriving with 408 in the error shape after Herald's 10 s, not Node's 60 s", () =>
    Effect.gen(function*() {
      const answer = yield* raw([[0, "GET /probe/echo HTTP/1.1\r\nHost: herald\r\nX-Slow: "]])
      assert.strictEqual(answer.status, 408, answer.head)
      assert.strictEqual(answer.body?.error?.code, "invalid")
      assert.isAtLeast(answer.elapsedMs, headersTimeoutMs - 100)
      // Node's 60 s would answer too: far later than the second given here, on any machine.
      assert.isBelow(answer.elapsedMs, 30_000)
      // What Herald's server is given when nothing is said.
      assert.strictEqual(NodeServer.make().headersTimeout, 10_000)
    }))

  it.effect("answers headers over the limit with 431 in the error shape", () =>
    Effect.gen(function*() {
      const answer = yield* raw([[0, `GET /probe/echo HTTP/1.1\r\nHost: herald\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`]])
      assert.strictEqual(answer.status, 431, answer.head)
      assert.strictEqual(answer.body?.error?.code, "invalid")
      assert.include(answer.body.error.message, "16 KB")
    }))

  it.effect("answers what is not HTTP (a header without a colon, a NUL in a header) with 400 in the error shape", () =>
    Effect.gen(function*() {
      for (const request of ["GET / HTTP/1.1\r\nHost: herald\r\nBad Header\r\n\r\n", "GET / HTTP/1.1\r\nHost: herald\r\nIdempotency-Key: a\u0000b\r\n\r\n"]) {
        const answer = yield* raw([[0, request]])
        assert.strictEqual(answer.status, 400, answer.head)
        assert.strictEqual(answer.body?.error?.code, "invalid")
        assert.include(answer.body.error.message, "not valid HTTP")
      }
    }))

  it.effect("keeps an idle connection through seconds in which its client was busy, so the next request is answered, not reset", () =>
    Effect.gen(function*() {
      const base = HttpServer.formatAddress((yield* HttpServer.HttpServer).address)
      const echo = () =>
        fetch(`${base}/probe/echo`, { method: "POST", headers: { "content-type": "application/json" }, body: `{"name":"a"}` })
          .then(async (response) => ({ status: response.status, keepAlive: response.headers.get("keep-alive"), body: await response.text() }))
          .catch((error) => ({ status: 0, keepAlive: null, body: String(error?.cause?.code ?? error) }))
      const first = yield* Effect.promise(echo)
      assert.strictEqual(first.status, 200, first.body)
      // A turn of the event loop: the connection is idle on both sides, each with its keep-alive timer set.
      yield* Effect.promise(() => new Promise((done) => setTimeout(done, 10)))
      // The client's thread held longer than Node's 5 s keep-alive and its 1 s grace, as a loaded test worker or a
      // client doing seconds of work between two calls is: both sides' timers are due together, and the client
      // sends before either has run. With Node's 5 s the server closed the connection under that request.
      const second = yield* Effect.promise(() => {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 6_500)
        return echo()
      })
      assert.deepStrictEqual(second, first)
      // What a client is told, so that its own idle limit stays below the server's.
      assert.strictEqual(second.keepAlive, "timeout=65")
      assert.strictEqual(NodeServer.make().keepAliveTimeout, 65_000)
    }))
})
