import { assert, describe, it, vi } from "@effect/vitest"
import { Cause, Console, Effect, Tracer } from "effect"
import { SqlError } from "effect/sql"
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

describe("Logging of warnings the cluster repeats per shard", () => {
  const release = (shardId: number) =>
    Effect.logWarning("Could not release shards, retrying", Cause.fail(new Error("Operation timed out after '2s'"))).pipe(
      Effect.annotateLogs({ module: "effect/cluster/Sharding", fiber: "releaseShard", shardId: `default:${shardId}` })
    )
  const releases = (from: number, to: number) =>
    Effect.forEach(Array.from({ length: to - from + 1 }, (_, index) => from + index), release, { discard: true })

  it.effect("150 releases failing in one handoff are two lines: the first, then how many more, when the process stops", () =>
    Effect.gen(function*() {
      const { console, lines } = captured()
      yield* Effect.scoped(Effect.gen(function*() {
        yield* releases(1, 150)
        yield* Effect.logWarning("Something else")
        yield* Effect.logWarning("Something else")
      })).pipe(Effect.provide(Logging.layer("text")), Effect.provideService(Console.Console, console))
      const released = lines.filter((line) => line.includes("Could not release shards"))
      assert.strictEqual(released.length, 2, lines.join("\n"))
      assert.match(released[0]!, /message="Could not release shards, retrying" .*shardId=default:1\b/)
      assert.match(released[1]!, /message="Could not release shards, retrying: 149 more times in 30 s, the last with this cause" .*shardId=default:150\b/)
      // Other messages are written each time.
      assert.strictEqual(lines.filter((line) => line.includes("Something else")).length, 2)
    }))

  it.effect("the count is written 30 s after the first, and the same warning after that starts again", () =>
    Effect.gen(function*() {
      const { console, lines } = captured()
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] })
      yield* Effect.scoped(Effect.gen(function*() {
        yield* releases(1, 2)
        vi.advanceTimersByTime(29_000)
        yield* release(3)
        vi.advanceTimersByTime(1_000)
        yield* releases(4, 5)
      })).pipe(
        Effect.provide(Logging.layer("json")),
        Effect.provideService(Console.Console, console),
        Effect.ensuring(Effect.sync(() => vi.useRealTimers()))
      )
      const released = lines.map((line) => JSON.parse(line)).filter((entry) => String(entry.message).startsWith("Could not release"))
      assert.deepStrictEqual(released.map((entry) => [entry.message, entry.annotations.shardId]), [
        ["Could not release shards, retrying", "default:1"],
        ["Could not release shards, retrying: 2 more times in 30 s, the last with this cause", "default:3"],
        ["Could not release shards, retrying", "default:4"],
        ["Could not release shards, retrying: once more in 30 s, the last with this cause", "default:5"]
      ])
    }))

  it.effect("background work failing on an unreachable database is one line per 10 s with a count, whatever the loop", () =>
    Effect.gen(function*() {
      const { console, lines } = captured()
      const refused = new SqlError.SqlError({
        reason: new SqlError.ConnectionError({
          cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
          message: "PgClient: Failed to connect"
        })
      })
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] })
      yield* Effect.scoped(Effect.gen(function*() {
        for (const round of ["handover", "webhooks", "inbox"]) {
          for (let index = 0; index < 20; index++) yield* Effect.logWarning(`${round} round failed`, Cause.fail(refused))
        }
        // A failure that is no storage fault is written as always.
        yield* Effect.logError("Unexpected failure", Cause.fail(new Error("a bug")))
        vi.advanceTimersByTime(10_000)
        yield* Effect.logWarning("handover round failed", Cause.fail(refused))
      })).pipe(
        Effect.provide(Logging.layer("text")),
        Effect.provideService(Console.Console, console),
        Effect.ensuring(Effect.sync(() => vi.useRealTimers()))
      )
      assert.strictEqual(lines.length, 4, lines.join("\n"))
      assert.match(lines[0]!, /message="handover round failed"/)
      assert.match(lines[1]!, /message="Unexpected failure"/)
      assert.match(lines[2]!, /message="storage unreachable: 59 more warnings and errors of work on the storage in 10 s, the last with this cause"/)
      assert.match(lines[3]!, /message="handover round failed"/)
    }))
})
