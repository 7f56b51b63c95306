import { assert, describe, layer } from "@effect/vitest"
import { ConfigProvider, Context, Effect, Exit, Layer, Option, Tracer } from "effect"
import { OtlpExporter } from "effect/observability"
import { createServer } from "node:http"
import * as Observability from "../src/Observability.ts"
import { eventually, pause } from "../../../testing/eventually.ts"
import { baseUrl, serverLayer, settings } from "./harness.ts"
import { settled, setup } from "./publishing.ts"

// With OTEL_EXPORTER_OTLP_ENDPOINT set, a request, its SQL, the post's publishing and each network call are
// one trace at the collector: an operator follows a post from the request that made it to the network's
// answer. Unset, nothing is sent and no tracer is installed.

interface Span {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly kind: number
  readonly attributes: ReadonlyArray<{ readonly key: string; readonly value: Record<string, unknown> }>
}

/** An OTLP/HTTP collector on a free port: what it was sent to `/v1/traces`, and every request it got. */
class Collector extends Context.Service<Collector, {
  readonly url: string
  readonly spans: Array<Span>
  readonly requests: Array<string>
  readonly resources: Array<unknown>
}>()("test/Collector") {
  static readonly layer = Layer.effect(Collector, Effect.acquireRelease(
    Effect.promise(() =>
      new Promise<Collector["Service"] & { readonly close: () => void }>((listening) => {
        const spans: Array<Span> = []
        const requests: Array<string> = []
        const resources: Array<unknown> = []
        const server = createServer((request, response) => {
          const chunks: Array<Buffer> = []
          request.on("data", (chunk: Buffer) => chunks.push(chunk))
          request.on("end", () => {
            requests.push(`${request.method} ${request.url} ${request.headers["content-type"]}`)
            const body = JSON.parse(Buffer.concat(chunks).toString("utf8"))
            for (const resourceSpans of body.resourceSpans ?? []) {
              resources.push(resourceSpans.resource)
              for (const scopeSpans of resourceSpans.scopeSpans ?? []) spans.push(...scopeSpans.spans)
            }
            response.writeHead(200, { "content-type": "application/json" }).end("{}")
          })
        })
        server.listen(0, "127.0.0.1", () => {
          const address = server.address()
          const port = typeof address === "object" && address !== null ? address.port : 0
          listening({ url: `http://127.0.0.1:${port}`, spans, requests, resources, close: () => server.close() })
        })
      })
    ),
    (collector) => Effect.sync(collector.close)
  ))
}

const attribute = (span: Span, key: string) => {
  const value = span.attributes.find((entry) => entry.key === key)?.value
  return value === undefined ? undefined : Object.values(value)[0]
}

/** Whether `span`'s parents, followed up through `byId`, reach `ancestor`. */
const descendsFrom = (span: Span, ancestor: Span, byId: ReadonlyMap<string, Span>) => {
  for (let current: Span | undefined = span, depth = 0; current !== undefined && depth < 64; depth++) {
    if (current.parentSpanId === ancestor.spanId) return true
    current = current.parentSpanId === undefined ? undefined : byId.get(current.parentSpanId)
  }
  return false
}

// The exporter's flush, to read spans without waiting for its 5 s round; only a server with an endpoint has it.
const flusherOf = Effect.map(Effect.serviceOption(OtlpExporter.Flusher), Option.getOrThrow)

/**
 * The trace of the request that created post `postId`, once the collector holds every part of it: the
 * request's server span, SQL spans, and `herald.publish` and `herald.network.publish` linked up to it.
 */
const traceOf = (postId: string) =>
  Effect.gen(function*() {
    const collector = yield* Collector
    const flusher = yield* flusherOf
    const found = yield* eventually(
      `the trace of post ${postId}`,
      Effect.andThen(flusher.flush, Effect.sync(() => partsOf(collector.spans, postId))),
      { everyMs: 100, describe: () => namesInTraceOf(collector.spans, postId) }
    )
    return { found, spans: collector.spans }
  })

const partsOf = (spans: ReadonlyArray<Span>, postId: string) => {
  const publish = spans.find((span) => span.name === "herald.publish" && attribute(span, "herald.post_id") === postId)
  if (publish === undefined) return undefined
  const trace = spans.filter((span) => span.traceId === publish.traceId)
  const request = trace.find((span) =>
    span.kind === 2 && attribute(span, "http.route") === "/api/v1/posts" && attribute(span, "http.request.method") === "POST"
  )
  const networkCall = trace.find((span) => span.name === "herald.network.publish" && attribute(span, "herald.post_id") === postId)
  const sql = trace.filter((span) => attribute(span, "db.query.text") !== undefined)
  if (request === undefined || networkCall === undefined || sql.length === 0) return undefined
  // A parent span ends, and so is exported, after its children: wait for the whole chain.
  const byId = new Map(trace.map((span) => [span.spanId, span]))
  return descendsFrom(publish, request, byId) && descendsFrom(networkCall, publish, byId)
    ? { request, byId, publish, networkCall, sql }
    : undefined
}

/** What the collector holds of post `postId`'s publishing trace, for a failure's message. */
const namesInTraceOf = (spans: ReadonlyArray<Span>, postId: string) => {
  const publish = spans.find((span) => span.name === "herald.publish" && attribute(span, "herald.post_id") === postId)
  return publish === undefined
    ? "no herald.publish span"
    : spans.filter((span) => span.traceId === publish.traceId).map((span) => span.name).join(", ")
}

const traced = Layer.unwrap(Effect.map(Collector, (collector) =>
  serverLayer({ otlpEndpoint: Option.some(collector.url) }))).pipe(Layer.provideMerge(Collector.layer))

/** The OpenTelemetry variables `environment` over the process's own. */
const withEnvironment = (environment: Record<string, string>) =>
  ConfigProvider.layerAdd(ConfigProvider.fromUnknown(environment), { asPrimary: true })

describe("tracing", () => {
  layer(traced, { excludeTestServices: true })("with OTEL_EXPORTER_OTLP_ENDPOINT", (it) => {
    // The background rounds poll the database many times a second; a round that found nothing to do is no
    // trace, or an idle server would fill the collector with empty ones. First, while the server is idle.
    it.effect("an idle server's rounds (webhook fan-out and sending, publishing's sweep, the cluster) export no trace", () =>
      Effect.gen(function*() {
        const collector = yield* Collector
        const flusher = yield* flusherOf
        yield* setup([])
        // What starting and the setup did, exported; then a window of rounds (ten of sending, two of the
        // fan-out's fallback, four of the cluster's). That none of them makes a trace has no later event to
        // show it: the window is a time, which a loaded machine fills with fewer rounds, never with a trace.
        yield* pause(1_000)
        yield* flusher.flush
        const from = collector.spans.length
        yield* pause(2_000)
        yield* flusher.flush
        const roots = collector.spans.slice(from).filter((span) => span.parentSpanId === undefined || span.parentSpanId === "")
        assert.deepStrictEqual([...new Set(roots.map((span) => span.name))], [])
      }))

    it.effect("a post made with publishNow is one trace: the request, its SQL, herald.publish and herald.network.publish under it", () =>
      Effect.gen(function*() {
        const { accounts, create, get } = yield* setup(["example"])
        const created = yield* create({ content: "Traced from request to network", accountIds: [accounts.example], publishNow: true })
        assert.strictEqual((yield* settled(get, created.id)).status, "published")
        const { found, spans } = yield* traceOf(created.id)
        assert.isDefined(found, `the post's trace: ${namesInTraceOf(spans, created.id)}`)
        const { byId, networkCall, publish, request, sql } = found!
        assert.isUndefined(request.parentSpanId)
        assert.isTrue(sql.some((span) => descendsFrom(span, request, byId)), "a SQL span under the request")
        assert.isTrue(descendsFrom(publish, request, byId), "herald.publish under the request")
        assert.isTrue(descendsFrom(networkCall, publish, byId), "herald.network.publish under herald.publish")
        assert.strictEqual(attribute(networkCall, "herald.network"), "example")
        assert.strictEqual(attribute(networkCall, "herald.target_id"), accounts.example)
        assert.match(String(attribute(sql[0]!, "db.query.text")), /\S/)
      }))

    // The cluster keeps the sender's trace in the persisted message (decision 0054), so a scheduled post's
    // publishing, picked up from the database when it is due, is still in the trace of the request that made it.
    it.effect("a scheduled post's publishing, when it comes due, stays in its creating request's trace", () =>
      Effect.gen(function*() {
        const { accounts, create, get } = yield* setup(["example"])
        const scheduledAt = new Date(Date.now() + 1_500).toISOString()
        const created = yield* create({ content: "Traced later", accountIds: [accounts.example], scheduledAt })
        assert.strictEqual(created.status, "scheduled")
        assert.strictEqual((yield* settled(get, created.id)).status, "published")
        const { found, spans } = yield* traceOf(created.id)
        assert.isDefined(found, `the post's trace: ${namesInTraceOf(spans, created.id)}`)
        assert.strictEqual(found!.publish.traceId, found!.request.traceId)
      }))

    it.effect("exports OTLP/HTTP JSON to <endpoint>/v1/traces as service herald, and leaves /health and /ready untraced", () =>
      Effect.gen(function*() {
        const collector = yield* Collector
        const { base } = yield* setup([])
        yield* Effect.promise(() => fetch(`${base}/health`).then((response) => response.text()))
        yield* Effect.promise(() => fetch(`${base}/ready`).then((response) => response.text()))
        yield* Effect.flatMap(flusherOf, (flusher) => flusher.flush)
        assert.isAbove(collector.requests.length, 0)
        for (const line of collector.requests) assert.strictEqual(line, "POST /v1/traces application/json")
        assert.deepInclude((collector.resources[0] as any).attributes, { key: "service.name", value: { stringValue: "herald" } })
        assert.isFalse(collector.spans.some((span) => ["/health", "/ready"].includes(String(attribute(span, "url.path")))))
      }))
  })

  layer(Layer.merge(serverLayer(), Collector.layer), { excludeTestServices: true })("without it", (it) => {
    it.effect("no tracer is installed and nothing is exported, while a post still goes out", () =>
      Effect.gen(function*() {
        const { accounts, create, get } = yield* setup(["example"])
        const created = yield* create({ content: "Not traced", accountIds: [accounts.example], publishNow: true })
        assert.strictEqual((yield* settled(get, created.id)).status, "published")
        assert.strictEqual(yield* Effect.withFiber((fiber) => Effect.succeed(fiber.getRef(Tracer.Tracer))), Tracer.nativeTracer)
        assert.isTrue(Option.isNone(yield* Effect.serviceOption(OtlpExporter.Flusher)))
        assert.deepStrictEqual((yield* Collector).requests, [])
      }))
  })

  layer(Collector.layer, { excludeTestServices: true })("stopping", (it) => {
    // Exports run every 5 s; what a stopping server has not sent yet goes before it ends.
    it.effect("a server stopped before its next export sends what it has on the way out", () =>
      Effect.gen(function*() {
        const collector = yield* Collector
        yield* Effect.scoped(Effect.gen(function*() {
          const context = yield* Layer.build(serverLayer({ otlpEndpoint: Option.some(collector.url) }))
          const base = yield* Effect.provideContext(baseUrl, context)
          const answer = yield* Effect.promise(() => fetch(`${base}/api/v1/accounts`).then((response) => response.status))
          assert.strictEqual(answer, 401)
        }))
        assert.isTrue(
          collector.spans.some((span) => span.kind === 2 && attribute(span, "url.path") === "/api/v1/accounts"),
          collector.spans.map((span) => span.name).join(", ")
        )
      }))
  })

  layer(
    Layer.unwrap(Effect.map(Collector, (collector) => serverLayer({ otlpEndpoint: Option.some(collector.url) }))).pipe(
      Layer.provide(withEnvironment({ OTEL_TRACES_SAMPLER: "parentbased_always_off" })),
      Layer.provideMerge(Collector.layer)
    ),
    { excludeTestServices: true }
  )("sampling", (it) => {
    it.effect("OTEL_TRACES_SAMPLER=parentbased_always_off exports no trace of its own, but keeps one a caller sampled", () =>
      Effect.gen(function*() {
        const collector = yield* Collector
        const base = yield* baseUrl
        const traceId = "4bf92f3577b34da6a3ce929d0e0e4736"
        yield* Effect.promise(() => fetch(`${base}/api/v1/accounts`).then((response) => response.text()))
        yield* Effect.promise(() =>
          fetch(`${base}/api/v1/accounts`, { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } }).then((response) => response.text())
        )
        yield* Effect.flatMap(flusherOf, (flusher) => flusher.flush)
        assert.isTrue(collector.spans.some((span) => span.kind === 2 && span.traceId === traceId))
        assert.deepStrictEqual([...new Set(collector.spans.map((span) => span.traceId))], [traceId])
      }))

    it.effect("an OTEL_TRACES_SAMPLER it does not know stops the start with the setting's name", () =>
      Effect.gen(function*() {
        const exit = yield* Effect.exit(Effect.scoped(Layer.build(
          Observability.layer(settings({ otlpEndpoint: Option.some("http://127.0.0.1:9") })).pipe(
            Layer.provide(withEnvironment({ OTEL_TRACES_SAMPLER: "sometimes" }))
          )
        )))
        assert.isTrue(Exit.isFailure(exit))
        assert.include(String(Exit.isFailure(exit) ? exit.cause : ""), "OTEL_TRACES_SAMPLER")
      }))
  })
})
