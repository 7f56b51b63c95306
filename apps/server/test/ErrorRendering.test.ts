import { assert, layer } from "@effect/vitest"
import { Effect, Layer, Schema } from "effect"
import { HttpServer } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { NodeHttpServer } from "@effect/platform-node"
import * as ErrorRendering from "../src/http/ErrorRendering.ts"
import * as Http from "../src/Http.ts"
import * as NodeServer from "../src/internal/nodeServer.ts"
import { request } from "./request.ts"

// Framework failures that no endpoint of the foundation can trigger yet (JSON bodies, defects) exercised
// through a small API served with the same global error rendering as the real server.
class Probe extends HttpApiGroup.make("probe").add(
  HttpApiEndpoint.post("echo", "/probe/echo", {
    payload: Schema.Struct({ name: Schema.String, count: Schema.Int }),
    success: Schema.Struct({ data: Schema.Struct({ name: Schema.String }) })
  }),
  HttpApiEndpoint.get("crash", "/probe/crash", { success: Schema.Struct({ data: Schema.Null }) })
) {}
class ProbeApi extends HttpApi.make("probe").add(Probe) {}

const ProbeHandlers = HttpApiBuilder.group(ProbeApi, "probe", (handlers) =>
  handlers
    .handle("echo", ({ payload }) => Effect.succeed({ data: { name: payload.name } }))
    .handle("crash", () => Effect.die(new Error("secret internals: password=hunter2"))))

const ProbeServer = Http.serve(
  Layer.mergeAll(HttpApiBuilder.layer(ProbeApi), ErrorRendering.layer).pipe(Layer.provide(ProbeHandlers))
).pipe(Layer.provideMerge(NodeHttpServer.layer(NodeServer.make, { port: 0, host: "127.0.0.1" })))

const base = Effect.map(HttpServer.HttpServer, (server) => HttpServer.formatAddress(server.address))

const post = (body: string | Uint8Array, contentType = "application/json") =>
  Effect.flatMap(base, (url) =>
    request(`${url}/probe/echo`, { method: "POST", headers: { "content-type": contentType }, body }))

layer(ProbeServer)("error rendering", (it) => {
  it.effect("accepts a valid JSON body", () =>
    Effect.gen(function*() {
      const answer = yield* post(JSON.stringify({ name: "a", count: 1 }))
      assert.strictEqual(answer.status, 200)
      assert.deepStrictEqual(answer.body, { data: { name: "a" } })
    }))

  it.effect("answers malformed JSON with 400 invalid", () =>
    Effect.gen(function*() {
      const answer = yield* post(`{"name": "a",`)
      assert.strictEqual(answer.status, 400)
      assert.strictEqual(answer.body.error.code, "invalid")
      assert.match(answer.body.error.message, /JSON/)
      assert.isNotNull(answer.headers.get("x-request-id"))
    }))

  it.effect("answers a body of the wrong shape with 400 invalid naming the field", () =>
    Effect.gen(function*() {
      const answer = yield* post(JSON.stringify({ name: "a", count: "many" }))
      assert.strictEqual(answer.status, 400)
      assert.strictEqual(answer.body.error.code, "invalid")
      assert.include(answer.body.error.message, "count")
      assert.deepStrictEqual(answer.body.error.details.map((problem: any) => problem.field), ["count"])
    }))

  it.effect("answers a wrong content type with 415 and code invalid", () =>
    Effect.gen(function*() {
      const answer = yield* post("name=a&count=1", "text/plain")
      assert.strictEqual(answer.status, 415, answer.text)
      assert.match(answer.body.error.message, /application\/json/)
      assert.strictEqual(answer.body.error.code, "invalid")
    }))

  it.effect("answers a body over 1 MiB with 413 too_large", () =>
    Effect.gen(function*() {
      const answer = yield* post(JSON.stringify({ name: "x".repeat(2 * 1024 * 1024), count: 1 }))
      assert.strictEqual(answer.status, 413, answer.text.slice(0, 200))
      assert.strictEqual(answer.body.error.code, "too_large")
    }))

  it.effect("answers a defect with 500 internal, the request id, and no internals", () =>
    Effect.gen(function*() {
      const url = yield* base
      const answer = yield* request(`${url}/probe/crash`)
      assert.strictEqual(answer.status, 500)
      assert.strictEqual(answer.body.error.code, "internal")
      const requestId = answer.headers.get("x-request-id")
      assert.isString(requestId)
      assert.strictEqual(answer.body.error.requestId, requestId)
      assert.include(answer.body.error.message, requestId!)
      assert.notInclude(answer.text, "hunter2")
      assert.notInclude(answer.text, "secret")
    }))
})
