import { assert, describe, it } from "@effect/vitest"
import { NodeHttpClient } from "@effect/platform-node"
import { Effect, Schema } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import * as NetworkClient from "../src/NetworkClient.ts"
import * as PublishError from "../src/PublishError.ts"

// The kit's transport against a real server: what the error table is handed for a refusal, the lost-answer
// rule for a call that may make the post, the bound on an answer's body, and the defaults every call carries.

const answers: Record<string, (request: IncomingMessage, response: ServerResponse) => void> = {
  "/ok": (_, response) => void response.writeHead(200, { "content-type": "application/json" }).end(`{"id":"42"}`),
  "/echo": (request, response) =>
    void response.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({ id: String(request.headers["x-api-version"]), extra: String(request.headers["x-extra"]) })
    ),
  "/refused": (_, response) =>
    void response.writeHead(400, { "content-type": "application/json" }).end(`{"error":"too_long"}`),
  "/text": (_, response) => void response.writeHead(503).end("try later"),
  "/busy": (_, response) => void response.writeHead(429, { "retry-after": "7" }).end(),
  "/reset-epoch": (_, response) => void response.writeHead(429, { "x-reset": "100" }).end(),
  "/reset-iso": (_, response) => void response.writeHead(429, { "x-reset": "1970-01-01T00:01:00.000Z" }).end(),
  "/odd": (_, response) => void response.writeHead(200, { "content-type": "application/json" }).end(`{"errors":[{"code":1}]}`),
  "/int64": (_, response) => void response.writeHead(200, { "content-type": "application/json" }).end(`{"id":7312345678901234567}`),
  "/huge": (_, response) => void response.writeHead(200).end(`{"id":"${"x".repeat(2_000)}"}`)
}

const served = Effect.acquireRelease(
  Effect.callback<ReturnType<typeof createServer>>((resume) => {
    const made = createServer((request, response) => {
      const answer = answers[new URL(request.url ?? "/", "http://localhost").pathname]
      if (answer === undefined) return void response.writeHead(404).end()
      answer(request, response)
    })
    made.listen(0, "127.0.0.1", () => resume(Effect.succeed(made)))
  }),
  (made) =>
    Effect.callback<void>((resume) => {
      made.closeAllConnections()
      made.close(() => resume(Effect.void))
    })
)

/** What the table was handed, kept so a test can read it. */
const seen: Array<NetworkClient.Refusal> = []

const options = (root: string): NetworkClient.Options => ({
  network: "example",
  name: "Example",
  baseUrl: root,
  headers: { "x-api-version": "7" },
  resetHeader: { name: "x-reset", form: "epoch-seconds" },
  maxAnswerBytes: 1_000,
  refusal: (refusal) => {
    seen.push(refusal)
    return PublishError.of("example", refusal.status === 429 ? "RateLimited" : "Rejected", `HTTP ${refusal.status}`, refusal.retryAfterMs ?? 0)
  }
})

const withClient = <A, E>(test: (client: NetworkClient.NetworkClient, root: string) => Effect.Effect<A, E>, more: Partial<NetworkClient.Options> = {}) =>
  Effect.gen(function*() {
    const server = yield* served
    const address = server.address()
    const root = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
    seen.length = 0
    return yield* test(NetworkClient.fromHttp(yield* HttpClient.HttpClient, { ...options(root), ...more }), root)
  }).pipe(Effect.scoped, Effect.provide(NodeHttpClient.layerUndici))

const Made = Schema.Struct({ id: Schema.String })
const summary = (error: PublishError.PublishError) => [error.reason._tag, error.reason.message] as const

describe("NetworkClient", () => {
  it.effect("decodes a success, with the base URL and the default headers applied, the call's own winning", () =>
    withClient((client) =>
      Effect.gen(function*() {
        assert.deepStrictEqual(yield* client.send(HttpClientRequest.get("/ok"), Made), { id: "42" })
        const echoed = yield* client.send(
          HttpClientRequest.get("/echo").pipe(HttpClientRequest.setHeader("x-extra", "yes")),
          Schema.Struct({ id: Schema.String, extra: Schema.String })
        )
        assert.deepStrictEqual(echoed, { id: "7", extra: "yes" })
        const own = yield* client.send(HttpClientRequest.get("/echo").pipe(HttpClientRequest.setHeader("x-api-version", "8")), Made)
        assert.strictEqual(own.id, "8")
      })))

  it.effect("hands a refusal to the table with its status, body, path without the query and the call", () =>
    withClient((client) =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(client.send(HttpClientRequest.get("/refused?access_token=secret"), Made, "makesPost"))
        assert.deepStrictEqual(summary(error), ["Rejected", "HTTP 400"])
        const refusal = seen[0]!
        assert.deepStrictEqual([refusal.status, refusal.body, refusal.path.endsWith("/refused"), refusal.call], [
          400,
          { error: "too_long" },
          true,
          "makesPost"
        ])
        assert.notInclude(refusal.path, "secret")
        yield* Effect.flip(client.execute(HttpClientRequest.get("/text")))
        assert.strictEqual(seen[1]!.body, "try later")
      })))

  it.effect("reads the wait from Retry-After first, else from the network's reset header", () =>
    withClient((client) =>
      Effect.gen(function*() {
        assert.strictEqual((yield* Effect.flip(client.execute(HttpClientRequest.get("/busy")))).retryAfterMs, 7_000)
        // The test clock stands at 0: a reset at epoch second 100 is 100 s away.
        assert.strictEqual((yield* Effect.flip(client.execute(HttpClientRequest.get("/reset-epoch")))).retryAfterMs, 100_000)
      })))

  it.effect("reads an ISO 8601 reset time", () =>
    withClient(
      (client) =>
        Effect.gen(function*() {
          assert.strictEqual((yield* Effect.flip(client.execute(HttpClientRequest.get("/reset-iso")))).retryAfterMs, 60_000)
        }),
      { resetHeader: { name: "x-reset", form: "iso-8601" } }
    ))

  it.effect("leaves a post-making call's outcome unknown when no answer comes, and retries a read", () =>
    Effect.gen(function*() {
      const client = NetworkClient.fromHttp(yield* HttpClient.HttpClient, options("http://127.0.0.1:1"))
      const made = yield* Effect.flip(client.send(HttpClientRequest.get("/ok"), Made, "makesPost"))
      assert.strictEqual(made.reason._tag, "OutcomeUnknown")
      assert.match(made.reason.message, /^Example's answer was lost \(.+\); the post may have been made$/)
      const read = yield* Effect.flip(client.send(HttpClientRequest.get("/ok"), Made))
      assert.strictEqual(read.reason._tag, "Transient")
      assert.match(read.reason.message, /^Example did not answer \(.+\)$/)
    }).pipe(Effect.provide(NodeHttpClient.layerUndici)))

  it.effect("treats an answer it cannot read as lost, unless the adapter says the success refused", () =>
    withClient((client) =>
      Effect.gen(function*() {
        const made = yield* Effect.flip(client.send(HttpClientRequest.get("/odd"), Made, "makesPost"))
        assert.deepStrictEqual(made.reason._tag, "OutcomeUnknown")
        assert.include(made.reason.message, "unexpected answer from")
        assert.strictEqual((yield* Effect.flip(client.send(HttpClientRequest.get("/odd"), Made))).reason._tag, "Transient")
      })))

  it.effect("hands a success that refuses to `refusedIn`", () =>
    withClient(
      (client) =>
        Effect.gen(function*() {
          const error = yield* Effect.flip(client.send(HttpClientRequest.get("/odd"), Made, "makesPost"))
          assert.deepStrictEqual(summary(error), ["Rejected", "errors in a 200"])
        }),
      { refusedIn: (refusal) => refusal.status === 200 ? PublishError.rejected("example", "errors in a 200") : undefined }
    ))

  it.effect("stops reading a body past the bound: the answer cannot be read", () =>
    withClient((client) =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(client.send(HttpClientRequest.get("/huge"), Made))
        assert.strictEqual(error.reason._tag, "Transient")
        assert.include(error.reason.message, "unexpected answer")
      })))

  it.effect("parses a body with the network's reviver, so an int64 id keeps its digits", () =>
    withClient(
      (client) =>
        Effect.gen(function*() {
          assert.deepStrictEqual(yield* client.send(HttpClientRequest.get("/int64"), Made), { id: "7312345678901234567" })
        }),
      {
        reviver: (_key, value, context) =>
          typeof value === "number" && !Number.isSafeInteger(value) && context?.source !== undefined ? context.source : value
      }
    ))

  it("turns each reset form into a wait from now", () => {
    const at = Date.parse("2026-12-03T10:00:00Z")
    assert.strictEqual(NetworkClient.resetWaitMs({ name: "r", form: "epoch-seconds" }, String(at / 1000 + 30), at), 30_000)
    assert.strictEqual(NetworkClient.resetWaitMs({ name: "r", form: "iso-8601" }, "2026-12-03T10:05:00Z", at), 300_000)
    assert.strictEqual(NetworkClient.resetWaitMs({ name: "r", form: "delta-seconds" }, "12", at), 12_000)
    // A reset already past waits nothing; an unreadable one is no wait at all.
    assert.strictEqual(NetworkClient.resetWaitMs({ name: "r", form: "epoch-seconds" }, "1", at), 0)
    assert.strictEqual(NetworkClient.resetWaitMs({ name: "r", form: "iso-8601" }, "soon", at), undefined)
    assert.strictEqual(NetworkClient.resetWaitMs({ name: "r", form: "epoch-seconds" }, undefined, at), undefined)
  })
})
