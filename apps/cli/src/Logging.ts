import { Context, Formatter, Logger, Tracer } from "effect"
import type { Settings } from "@herald/core"

/**
 * How `herald` writes its log: to stderr, so that stdout carries only the command's result (one JSON
 * document with --json), one line per entry so that lines can be searched and parsed. `text`: logfmt
 * (`level=INFO message="publish attempt" ...`). `json`: one object per line with `timestamp`, `level`,
 * `message`, `annotations`, `spans` (log spans, in ms), `cause` and `fiberId`, for a log collector; with
 * tracing on, also the `traceId` and `spanId` the entry was written in, so that a line leads to its trace.
 */
export const layer = (format: Settings.LogFormat) => Logger.layer([format === "json" ? json : text])

const text = Logger.withConsoleError(Logger.formatLogFmt)

// Only an exporting tracer's ids lead anywhere; the native tracer's would be noise on every line.
const withTrace = Logger.make((options) => {
  const entry = Logger.formatStructured.log(options)
  const span = Context.getOrUndefined(options.fiber.context, Tracer.ParentSpan)
  return Formatter.formatJson(
    span === undefined || options.fiber.getRef(Tracer.Tracer) === Tracer.nativeTracer
      ? entry
      : { ...entry, traceId: span.traceId, spanId: span.spanId }
  )
})

const json = Logger.withConsoleError(withTrace)
