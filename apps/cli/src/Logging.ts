import { Console, Context, Effect, Formatter, Logger, Tracer } from "effect"
import type { Settings } from "@herald/core"

/**
 * How `herald` writes its log: to stderr, so that stdout carries only the command's result (one JSON
 * document with --json), one line per entry so that lines can be searched and parsed. `text`: logfmt
 * (`level=INFO message="publish attempt" ...`). `json`: one object per line with `timestamp`, `level`,
 * `message`, `annotations`, `spans` (log spans, in ms), `cause` and `fiber`, for a log collector; with
 * tracing on, also the `traceId` and `spanId` the entry was written in, so that a line leads to its trace.
 * Warnings the cluster repeats once per shard are folded (see `folded`).
 */
export const layer = (format: Settings.LogFormat) => Logger.layer([folded(format === "json" ? withTrace : Logger.formatLogFmt)])

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

/**
 * Warnings `effect/cluster` writes once for each shard of a handoff: when the storage is slow, a stop or a
 * rebalance releasing 150 shards wrote 150 of them, each with a stack trace (issue 30). The first is written,
 * the same message within the next `foldedForMs` is counted, and one line then says how many more there
 * were; a stop writes the count it has before the process ends.
 */
export const foldedMessages: ReadonlySet<string> = new Set(["Could not release shards, retrying"])
export const foldedForMs = 30_000

const textOf = (message: unknown): string | undefined => {
  const first = Array.isArray(message) ? message[0] : message
  return typeof first === "string" ? first : undefined
}

interface Folding {
  count: number
  /** The line saying how many more, formatted when the last one came (its annotations are its fiber's). */
  line: string
  readonly console: Console.Console
  readonly timer: ReturnType<typeof setTimeout>
}

/** Each entry formatted by `format` and written to the console's stderr, with `foldedMessages` folded. */
export const folded = (format: Logger.Logger<unknown, string>) =>
  Effect.gen(function*() {
    const open = new Map<string, Folding>()
    const close = (message: string) => {
      const folding = open.get(message)
      if (folding === undefined) return
      open.delete(message)
      clearTimeout(folding.timer)
      if (folding.count > 0) folding.console.error(folding.line)
    }
    yield* Effect.addFinalizer(() => Effect.sync(() => [...open.keys()].forEach(close)))
    return Logger.make<unknown, void>((options) => {
      const console = options.fiber.getRef(Console.Console)
      const message = textOf(options.message)
      if (message === undefined || !foldedMessages.has(message)) return console.error(format.log(options))
      const folding = open.get(message)
      if (folding === undefined) {
        const timer = setTimeout(() => close(message), foldedForMs)
        timer.unref()
        open.set(message, { count: 0, line: "", console, timer })
        return console.error(format.log(options))
      }
      folding.count++
      const times = folding.count === 1 ? "once more" : `${folding.count} more times`
      folding.line = format.log({
        ...options,
        message: `${message}: ${times} in ${Math.round(foldedForMs / 1000)} s, the last with this cause`
      })
    })
  })
