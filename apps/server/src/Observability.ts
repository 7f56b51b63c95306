import { Config, Effect, Layer, Option, Tracer } from "effect"
import { HttpMiddleware } from "effect/http"
import { OtlpExporter, OtlpSerialization, OtlpTracer } from "effect/observability"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { Settings } from "@herald/core"

/**
 * Tracing over OpenTelemetry, on only when `OTEL_EXPORTER_OTLP_ENDPOINT` is set: Effect's OTLP tracer
 * replaces the built-in one, so every span Herald already makes is exported to `<endpoint>/v1/traces`
 * (OTLP/HTTP, JSON): the request's server span (Effect's HTTP server makes it once a real tracer is
 * installed, continuing a `traceparent` the caller sent), each SQL statement (`db.query.text`), the cluster
 * message that carries a post to its entity (its envelope keeps the sender's trace, in the database too),
 * and the publishing spans under it. Spans are sent in batches every 5 s and on shutdown.
 *
 * Unset, this layer is empty: no exporter, no batching, and the HTTP server keeps its untraced fast path.
 */
export const layer = (settings: Settings.Settings) =>
  Option.match(settings.otlpEndpoint, {
    onNone: () => Layer.empty,
    onSome: tracing
  })

// Probes and scrapes would bury the traces worth reading.
const untracedPaths = ["/health", "/ready", "/metrics"]

const tracing = (endpoint: string) =>
  Layer.unwrap(Effect.map(Effect.all([serviceName, samplingRatio]), ([name, ratio]) =>
    Layer.effect(
      Tracer.Tracer,
      Effect.map(OtlpTracer.make({ url: `${endpoint}/v1/traces`, resource: { serviceName: name } }), sampling(ratio))
    ).pipe(
      Layer.provideMerge(OtlpExporter.layerFlusher),
      Layer.provideMerge(HttpMiddleware.layerTracerDisabledForUrls(untracedPaths)),
      Layer.provide([OtlpSerialization.layerJson, NodeHttpClient.layerUndici])
    )))

/**
 * `herald` unless the operator names the service the OpenTelemetry way (`OTEL_SERVICE_NAME`, or
 * `service.name` in `OTEL_RESOURCE_ATTRIBUTES`), which the tracer then reads itself, along with the other
 * resource attributes.
 */
const serviceName = Effect.gen(function*() {
  const named = yield* Config.option(Config.String("OTEL_SERVICE_NAME"))
  const attributes = yield* Config.option(Config.String("OTEL_RESOURCE_ATTRIBUTES"))
  const inAttributes = Option.exists(attributes, (list) =>
    list.split(",").some((entry) => entry.split("=")[0]?.trim() === "service.name"))
  return Option.isSome(named) || inAttributes ? undefined : "herald"
}).pipe(Effect.orDie)

const samplers = ["always_on", "always_off", "traceidratio", "parentbased_always_on", "parentbased_always_off", "parentbased_traceidratio"]

/**
 * The share of new traces kept, from the OpenTelemetry variables `OTEL_TRACES_SAMPLER` (default
 * `parentbased_always_on`: every trace) and `OTEL_TRACES_SAMPLER_ARG` (the ratio, for the `traceidratio`
 * samplers). Exporting costs CPU on every request (bench/tracing), so a busy installation keeps a share.
 */
const samplingRatio = Effect.gen(function*() {
  const sampler = Option.getOrElse(yield* Config.option(Config.String("OTEL_TRACES_SAMPLER")), () => "parentbased_always_on").trim()
  if (!samplers.includes(sampler)) {
    return yield* new Settings.InvalidSetting({ name: "OTEL_TRACES_SAMPLER", value: sampler, expected: samplers.join(", ") })
  }
  if (sampler.endsWith("always_on")) return 1
  if (sampler.endsWith("always_off")) return 0
  const argument = Option.getOrElse(yield* Config.option(Config.String("OTEL_TRACES_SAMPLER_ARG")), () => "1").trim()
  const ratio = /^(0|1|0?\.\d+|1\.0*)$/.test(argument) ? Number(argument) : Number.NaN
  return Number.isNaN(ratio)
    ? yield* new Settings.InvalidSetting({ name: "OTEL_TRACES_SAMPLER_ARG", value: argument, expected: "a ratio from 0 to 1" })
    : ratio
}).pipe(Effect.catchTag("ConfigError", Effect.die))

/**
 * Keeps `ratio` of the traces that start here; a span with a parent follows its parent's decision (a
 * caller's `traceparent` flag, or the request a publishing belongs to), so a trace is kept or dropped whole.
 * A dropped span is still made (its children need a parent) but is neither filled in nor exported. Both
 * OpenTelemetry sampler families behave this parent-based way here.
 */
const sampling = (ratio: number) => (tracer: Tracer.Tracer): Tracer.Tracer =>
  ratio >= 1 ? tracer : Tracer.make({
    // A root decision has nothing to agree with elsewhere, so a random draw serves as well as the trace id.
    span: (options) =>
      tracer.span(Option.isNone(options.parent) && options.sampled ? { ...options, sampled: Math.random() < ratio } : options),
    context: tracer.context
  })
