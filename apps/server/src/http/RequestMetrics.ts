import { Context, Metric } from "effect"
import { HttpRouter } from "effect/http"
import { Metrics } from "@herald/core"

// Every answer of the public server counts in `herald_http_requests_total` and
// `herald_http_request_duration_seconds` (core's Metrics), labelled with the matched route's template, never
// its path, so the series stay few however many ids are asked for. This runs on every request: each label set
// gets its context (the registry and the labels) once, and an answer costs two updates of series found by
// that context, instead of a fresh context and series key per request.

/** The label for answers no route matched (unknown paths, wrong methods). */
const unmatched = "unmatched"

interface Handle {
  readonly context: Context.Context<never>
}

/** What the middleware records each answer with; built once per server from its metric registry. */
export interface Recorder {
  /** The template of the route that answered, read from the router's context, or `unmatched`. */
  readonly routeOf: (context: Context.Context<never>) => string
  readonly record: (route: string, method: string, status: number, seconds: number) => void
}

export const make = (registry: Metric.MetricRegistry): Recorder => {
  const handles = new Map<string, Handle>()
  const base = Context.make(Metric.MetricRegistry, registry)

  const handle = (route: string, method: string, status: number): Handle => {
    const key = `${method} ${status} ${route}`
    let found = handles.get(key)
    if (found === undefined) {
      const attributes: Metric.Metric.AttributeSet = { route, method, status: String(status) }
      found = { context: Context.add(base, Metric.CurrentMetricAttributes, attributes) }
      handles.set(key, found)
    }
    return found
  }

  return {
    routeOf: (context) => Context.getOrUndefined(context, HttpRouter.RouteContext)?.route.path ?? unmatched,
    record: (route, method, status, seconds) => {
      const { context } = handle(route, method, status)
      Metrics.httpRequests.updateUnsafe(1, context)
      Metrics.httpRequestDuration.updateUnsafe(seconds, context)
    }
  }
}
