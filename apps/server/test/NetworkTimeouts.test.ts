import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit, Layer, Logger, Metric, References } from "effect"
import { HttpClient, HttpClientError, HttpClientRequest } from "effect/http"
import { TestClock } from "effect/testing"
import { createServer, type Server } from "node:http"
import { type AddressInfo, createServer as createNetServer, type Server as NetServer, type Socket } from "node:net"
import * as NetworkHttp from "../src/NetworkHttp.ts"
import { defaults, NetworkWatch, networkTimeouts, networkOf, timeoutFor } from "../src/NetworkWatch.ts"
import { Readiness } from "../src/Readiness.ts"
import * as SystemHandlers from "../src/http/SystemHandlers.ts"
import { eventually } from "../../../testing/eventually.ts"

// Issue 30, point 6: a network that accepts connections and never answers held Herald's calls for as long as
// it liked, silently. Now every call of the adapters' client has Herald's own timeout, and the stuck network
// is logged once per interval, counted, and named by /ready (which stays ready).

// Accepts every request and never answers it.
const silentListener = Effect.acquireRelease(
  Effect.callback<{ readonly server: Server; readonly port: number }>((resume) => {
    const server = createServer(() => {})
    server.listen(0, "127.0.0.1", () => resume(Effect.succeed({ server, port: (server.address() as AddressInfo).port })))
  }),
  ({ server }) =>
    Effect.callback<void>((resume) => {
      server.closeAllConnections()
      server.close(() => resume(Effect.void))
    })
)

const lines: Array<string> = []
const capture = Logger.make((options) => void lines.push(Logger.formatLogFmt.log(options)))

const logging = Layer.mergeAll(Logger.layer([capture]), Layer.succeed(References.MinimumLogLevel, "All"))

// The watch's own round logs as well as the calls' fibers, so both get the capturing logger.
const client = (own: string, allowPrivate: boolean, timeoutMs = 300) =>
  Layer.mergeAll(
    NetworkHttp.layer({ own, allowPrivate }).pipe(
      Layer.provideMerge(NetworkWatch.layer({ timeoutMs, slowAfterMs: 200, logEveryMs: 60_000 })),
      Layer.provide(logging)
    ),
    logging
  )

const readyChecks = Layer.succeed(Readiness, Readiness.of({
  check: Effect.succeed({ database: "ok", migrations: "ok", shards: "ok" } as const)
}))

const timeoutCount = (network: string) =>
  Effect.map(Metric.value(Metric.withAttributes(networkTimeouts, { network })), (state) => state.count)

describe("Herald's own network timeouts", () => {
  it("names the network from the sandbox path on Herald's own address, else the host", () => {
    assert.strictEqual(networkOf("http://herald.test/sandbox/mastodon/api/v1/statuses", "http://herald.test"), "sandbox mastodon")
    assert.strictEqual(networkOf("https://bsky.social/xrpc/x", "http://herald.test"), "bsky.social")
  })

  it.live("a call to a network that never answers fails as a transport error; the network is degraded, logged once, counted, and /ready stays ready", () =>
    Effect.gen(function*() {
      const { port } = yield* silentListener
      const url = `http://127.0.0.1:${port}/v1/statuses`
      const before = yield* timeoutCount("127.0.0.1")
      const http = yield* HttpClient.HttpClient
      const watch = yield* NetworkWatch
      lines.length = 0

      const exit = yield* Effect.exit(http.get(url))
      assert.isTrue(Exit.isFailure(exit))
      const error = Exit.isFailure(exit) ? exit.cause.reasons[0] : undefined
      assert.isTrue(error?._tag === "Fail" && HttpClientError.isHttpClientError(error.error))
      const reason = error?._tag === "Fail" ? (error.error as HttpClientError.HttpClientError).reason : undefined
      assert.strictEqual(reason?._tag, "TransportError")
      assert.strictEqual(reason?.description, `no answer from 127.0.0.1:${port} within 0.3 s`)

      // Many more calls to the same network: still one warning in the interval.
      yield* Effect.forEach(Array.from({ length: 8 }), () => Effect.exit(http.get(url)), { concurrency: "unbounded" })
      const warnings = lines.filter((line) => line.includes("127.0.0.1 is not answering"))
      assert.strictEqual(warnings.length, 1, lines.join("\n"))
      assert.include(warnings[0], "timed out in the last minute")
      assert.strictEqual((yield* timeoutCount("127.0.0.1")) - before, 9)

      const degraded = yield* watch.degraded
      assert.match(degraded["127.0.0.1"] ?? "", /^degraded: 0 calls waiting, the oldest for 0 s; 9 timed out in the last minute$/)

      const answer = yield* SystemHandlers.ready.pipe(Effect.provide(readyChecks))
      assert.strictEqual(answer.status, "ready")
      assert.deepStrictEqual(answer.networks, { "127.0.0.1": degraded["127.0.0.1"]! })
    }).pipe(Effect.scoped, Effect.provide(client("http://herald.test", true))))

  it.live("a call to Herald's own address still waiting past the threshold degrades its network while it waits, with private addresses refused", () =>
    Effect.gen(function*() {
      const { port } = yield* silentListener
      const own = `http://127.0.0.1:${port}`
      yield* Effect.gen(function*() {
        const http = yield* HttpClient.HttpClient
        const watch = yield* NetworkWatch
        yield* Effect.forkScoped(Effect.exit(http.get(`${own}/sandbox/mastodon/api/v1/statuses`)))
        const degraded = yield* eventually("the waiting call's network to be degraded", Effect.map(watch.degraded, (found) =>
          found["sandbox mastodon"] !== undefined && found))
        assert.match(degraded["sandbox mastodon"]!, /^degraded: 1 calls waiting, the oldest for \d+ s; 0 timed out in the last minute$/)
        const exit = yield* eventually("the call to time out", Effect.map(watch.degraded, (found) =>
          found["sandbox mastodon"]?.includes("1 timed out") === true && found))
        assert.isDefined(exit)
      }).pipe(Effect.provide(client(own, false, 1_500)))
    }).pipe(Effect.scoped))

  it.live("a network that answers again is no longer degraded", () =>
    Effect.gen(function*() {
      const answering = yield* Effect.acquireRelease(
        Effect.callback<{ readonly server: Server; readonly port: number }>((resume) => {
          let first = true
          const server = createServer((_, response) => {
            if (first) {
              first = false
              return
            }
            response.end("ok")
          })
          server.listen(0, "127.0.0.1", () => resume(Effect.succeed({ server, port: (server.address() as AddressInfo).port })))
        }),
        ({ server }) => Effect.callback<void>((resume) => {
          server.closeAllConnections()
          server.close(() => resume(Effect.void))
        })
      )
      const http = yield* HttpClient.HttpClient
      const watch = yield* NetworkWatch
      const url = `http://127.0.0.1:${answering.port}/x`
      yield* Effect.exit(http.get(url))
      assert.property(yield* watch.degraded, "127.0.0.1")
      const response = yield* http.get(url)
      assert.strictEqual(response.status, 200)
      assert.deepStrictEqual(yield* watch.degraded, {})
      const answer = yield* SystemHandlers.ready.pipe(Effect.provide(readyChecks))
      assert.isUndefined(answer.networks)
    }).pipe(Effect.scoped, Effect.provide(client("http://herald.test", true))))

  it("in the sandbox, a call to another process's simulator path goes to this process; nothing else is moved", () => {
    const simulated = new Set(["mastodon"])
    const to = (url: string) => NetworkHttp.toOwnSimulator(HttpClientRequest.get(url), "http://herald.test", simulated).url
    assert.strictEqual(to("http://localhost:4001/sandbox/mastodon/api/v1/statuses?limit=1"), "http://herald.test/sandbox/mastodon/api/v1/statuses?limit=1")
    assert.strictEqual(to("https://mastodon.social/api/v1/statuses"), "https://mastodon.social/api/v1/statuses")
    assert.strictEqual(to("http://localhost:4001/sandbox/other/x"), "http://localhost:4001/sandbox/other/x")
    assert.strictEqual(to("http://herald.test/sandbox/mastodon/api"), "http://herald.test/sandbox/mastodon/api")
  })

  it("an upload waits long enough for its body at 512 KiB/s, and never less than 5 minutes", () => {
    const mib = 1024 * 1024
    assert.strictEqual(timeoutFor(defaults, undefined), 60_000)
    assert.strictEqual(timeoutFor(defaults, mib), 60_000)
    assert.strictEqual(timeoutFor(defaults, 2 * mib), 300_000)
    // Herald's largest upload, 512 MiB: 1,024 s to send at the slowest rate waited for, then the answer's 60 s.
    assert.strictEqual(timeoutFor(defaults, 512 * mib), 1_084_000)
  })

  it.live("a connection that does not open within Herald's connect timeout fails at once, long before the answer's", () =>
    Effect.gen(function*() {
      // Takes the TCP connection and never speaks TLS: the connection never opens.
      const { port } = yield* Effect.acquireRelease(
        Effect.callback<{ readonly server: NetServer; readonly sockets: Set<Socket>; readonly port: number }>((resume) => {
          const sockets = new Set<Socket>()
          const server = createNetServer((socket) => void sockets.add(socket))
          server.listen(0, "127.0.0.1", () => resume(Effect.succeed({ server, sockets, port: (server.address() as AddressInfo).port })))
        }),
        ({ server, sockets }) =>
          Effect.callback<void>((resume) => {
            for (const socket of sockets) socket.destroy()
            server.close(() => resume(Effect.void))
          })
      )
      const http = yield* HttpClient.HttpClient
      const started = Date.now()
      const exit = yield* Effect.exit(http.get(`https://127.0.0.1:${port}/v1/statuses`))
      const took = Date.now() - started
      assert.isTrue(Exit.isFailure(exit))
      const error = Exit.isFailure(exit) ? exit.cause.reasons[0] : undefined
      const reason = error?._tag === "Fail" ? (error.error as HttpClientError.HttpClientError).reason : undefined
      assert.strictEqual(reason?._tag, "TransportError")
      assert.notInclude(String(reason?.description), "no answer from", "the answer's timeout, not the connection's")
      // The library's own default would have waited 10 s.
      assert.isBelow(took, 5_000)
    }).pipe(Effect.scoped, Effect.provide(Layer.mergeAll(
      NetworkHttp.layer({ own: "http://herald.test", allowPrivate: true }).pipe(
        Layer.provideMerge(NetworkWatch.layer({ timeoutMs: 60_000, connectTimeoutMs: 300 })),
        Layer.provide(logging)
      ),
      logging
    ))))

  it.effect("a network whose call timed out and that is not called again is degraded for a minute, not for good", () =>
    Effect.gen(function*() {
      const watch = yield* NetworkWatch
      yield* watch.timedOut("sandbox youtube")
      assert.deepStrictEqual(Object.keys(yield* watch.degraded), ["sandbox youtube"])
      yield* TestClock.adjust("59 seconds")
      assert.deepStrictEqual(Object.keys(yield* watch.degraded), ["sandbox youtube"])
      yield* TestClock.adjust("2 seconds")
      assert.deepStrictEqual(yield* watch.degraded, {})
    }).pipe(Effect.provide(NetworkWatch.layer().pipe(Layer.provide(logging)))))
})
