import { Console, Context, Effect, Formatter, Logger, LogLevel, Tracer } from "effect"
import { type Settings, StorageFaults } from "@herald/core"

/**
 * How `herald` writes its log: to stderr, so that stdout carries only the command's result (one JSON
 * document with --json), one line per entry so that lines can be searched and parsed. `text`: logfmt
 * (`level=INFO message="publish attempt" ...`). `json`: one object per line with `timestamp`, `level`,
 * `message`, `annotations`, `spans` (log spans, in ms), `cause` and `fiber`, for a log collector; with
 * tracing on, also the `traceId` and `spanId` the entry was written in, so that a line leads to its trace.
 * Warnings the cluster repeats once per shard, and those of a storage fault, are folded (see `folded`).
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
 * the same message within the next 30 s is counted, and one line then says how many more there were; a stop
 * writes the count it has before the process ends.
 */
const foldedMessages: ReadonlySet<string> = new Set(["Could not release shards, retrying"])

/**
 * Warnings and errors whose cause is a storage fault (StorageFaults: the database unreachable, the disk full)
 * are folded by the fault's kind for 10 s, as the requests' answers count them (decision 0067): a database
 * outage made every background round (the scheduler, webhooks, the inbox, the cluster's storage) write its
 * own line with a stack trace, 228 lines in a 20 s outage.
 */
const storageFoldMs = 10_000
const shardFoldMs = 30_000

interface Fold {
  readonly key: string
  readonly windowMs: number
  /** The line that says how many more there were. */
  readonly summary: (count: number) => string
}

const times = (count: number) => count === 1 ? "once more" : `${count} more times`

const textOf = (message: unknown): string | undefined => {
  const first = Array.isArray(message) ? message[0] : message
  return typeof first === "string" ? first : undefined
}

const foldOf = (options: Logger.Options<unknown>): Fold | undefined => {
  const message = textOf(options.message)
  if (message !== undefined && foldedMessages.has(message)) {
    return { key: message, windowMs: shardFoldMs, summary: (count) => `${message}: ${times(count)} in 30 s, the last with this cause` }
  }
  if (!LogLevel.isGreaterThanOrEqualTo(options.logLevel, "Warn")) return undefined
  const fault = StorageFaults.ofCause(options.cause)
  if (fault === undefined) return undefined
  const said = fault.kind === "full" ? "storage full" : "storage unreachable"
  return {
    key: said,
    windowMs: storageFoldMs,
    summary: (count) =>
      `${said}: ${count === 1 ? "1 more warning or error" : `${count} more warnings and errors`} of work on the storage in 10 s, the last with this cause`
  }
}

interface Folding {
  count: number
  /** The line saying how many more, formatted when the last one came (its annotations are its fiber's). */
  line: string
  readonly console: Console.Console
  readonly timer: ReturnType<typeof setTimeout>
}

/** Each entry formatted by `format` and written to the console's stderr, repeated ones folded (`foldOf`). */
const folded = (format: Logger.Logger<unknown, string>) =>
  Effect.gen(function*() {
    const open = new Map<string, Folding>()
    const close = (key: string) => {
      const folding = open.get(key)
      if (folding === undefined) return
      open.delete(key)
      clearTimeout(folding.timer)
      if (folding.count > 0) folding.console.error(folding.line)
    }
    yield* Effect.addFinalizer(() => Effect.sync(() => [...open.keys()].forEach(close)))
    return Logger.make<unknown, void>((options) => {
      const console = options.fiber.getRef(Console.Console)
      const fold = foldOf(options)
      if (fold === undefined) return console.error(format.log(options))
      const folding = open.get(fold.key)
      if (folding === undefined) {
        const timer = setTimeout(() => close(fold.key), fold.windowMs)
        timer.unref()
        open.set(fold.key, { count: 0, line: "", console, timer })
        return console.error(format.log(options))
      }
      folding.count++
      folding.line = format.log({ ...options, message: fold.summary(folding.count) })
    })
  })
