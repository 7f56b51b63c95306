import { assert, describe, it } from "@effect/vitest"
import { Console, Effect, Tracer } from "effect"
import * as Logging from "../src/Logging.ts"

// A JSON log line written inside a traced request or publishing names its trace, so that an operator goes
// from the line to the trace; without an exporting tracer there is nothing to lead to, and no ids.

const captured = () => {
  const lines: Array<string> = []
  const console = { ...globalThis.console, error: (line: string) => lines.push(line) } as unknown as Console.Console
  return { lines, console }
}

// Any tracer but the native one stands for the OTLP tracer here.
const exporting = Tracer.make({ span: (options) => new Tracer.NativeSpan(options) })

const logInSpan = Effect.logInfo("publish attempt").pipe(Effect.annotateLogs({ post: "pst_1" }), Effect.withSpan("herald.publish"))

describe("Logging", () => {
  it.effect("json under an exporting tracer: the entry carries the traceId and spanId it was written in", () =>
    Effect.gen(function*() {
      const { console, lines } = captured()
      const spanIds = yield* Effect.gen(function*() {
        const span = yield* Effect.currentSpan
        yield* Effect.logInfo("publish attempt").pipe(Effect.annotateLogs({ post: "pst_1" }))
        return { traceId: span.traceId, spanId: span.spanId }
      }).pipe(
        Effect.withSpan("herald.publish"),
        Effect.provide(Logging.layer("json")),
        Effect.provideService(Tracer.Tracer, exporting),
        Effect.provideService(Console.Console, console)
      )
      assert.strictEqual(lines.length, 1)
      const entry = JSON.parse(lines[0]!)
      assert.strictEqual(entry.level, "INFO")
      assert.strictEqual(entry.message, "publish attempt")
      assert.deepStrictEqual(entry.annotations, { post: "pst_1" })
      assert.strictEqual(entry.traceId, spanIds.traceId)
      assert.strictEqual(entry.spanId, spanIds.spanId)
    }))

  it.effect("json with the native tracer (tracing off): no ids", () =>
    Effect.gen(function*() {
      const { console, lines } = captured()
      yield* logInSpan.pipe(Effect.provide(Logging.layer("json")), Effect.provideService(Console.Console, console))
      const entry = JSON.parse(lines[0]!)
      assert.strictEqual(entry.message, "publish attempt")
      assert.notProperty(entry, "traceId")
    }))

  it.effect("text: one logfmt line", () =>
    Effect.gen(function*() {
      const { console, lines } = captured()
      yield* logInSpan.pipe(Effect.provide(Logging.layer("text")), Effect.provideService(Console.Console, console))
      assert.match(lines[0]!, /level=INFO .*message="publish attempt" .*post=pst_1/)
    }))
})
