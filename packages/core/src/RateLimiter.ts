import { Clock, Context, Duration, Effect, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import * as Settings from "./Settings.ts"

/** The outcome of counting one request against its subject's window. */
export interface Decision {
  readonly allowed: boolean
  readonly limit: number
  readonly remaining: number
  /** Whole seconds until the window ends and the count starts again. */
  readonly resetSeconds: number
}

export interface Options {
  readonly limitPerMinute: number
  /** How often local counts are added to the shared ones. */
  readonly syncInterval?: Duration.Duration | undefined
}

interface Window {
  start: number
  /** The shared count as of the last sync, every process included. */
  shared: number
  /** Requests this process counted since the last sync. */
  pending: number
}

const windowMillis = 60_000

// Fixed one-minute windows per subject (an API key, or the client address for requests without a valid key).
// Counts live in PostgreSQL so every Herald process sharing the database sees them; each process adds its
// own count in batches a few times a second instead of on every request, so the request path costs no
// query. Several processes can therefore overshoot the limit by what they admit between two syncs.
export class RateLimiter extends Context.Service<RateLimiter, {
  consume(subject: string): Effect.Effect<Decision>
  readonly limitPerMinute: number
  readonly sync: Effect.Effect<void>
}>()("@herald/core/RateLimiter") {
  static readonly make = (options: Options) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const windows = new Map<string, Window>()
      const limit = options.limitPerMinute

      const consume = (subject: string) =>
        Effect.map(Clock.currentTimeMillis, (now): Decision => {
          const start = now - (now % windowMillis)
          let window = windows.get(subject)
          if (window === undefined || window.start !== start) {
            window = { start, shared: 0, pending: 0 }
            windows.set(subject, window)
          }
          const resetSeconds = Math.max(1, Math.ceil((start + windowMillis - now) / 1000))
          const used = window.shared + window.pending
          if (used >= limit) return { allowed: false, limit, remaining: 0, resetSeconds }
          window.pending++
          return { allowed: true, limit, remaining: limit - used - 1, resetSeconds }
        })

      const sync = Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const batch: Array<{ subject: string; window: Window; count: number }> = []
        for (const [subject, window] of windows) {
          // Subjects with nothing new still ask for the shared count, to learn what other processes admitted.
          if (window.start + windowMillis <= now) windows.delete(subject)
          else batch.push({ subject, window, count: window.pending })
        }
        if (batch.length === 0) return
        for (const item of batch) item.window.pending -= item.count
        const rows = yield* sql<{ readonly subject: string; readonly count: number }>`
          INSERT INTO rate_limit_windows ${
          sql.insert(batch.map((item): Record<string, unknown> => ({
            subject: item.subject,
            window_start: new Date(item.window.start),
            count: item.count
          })) as unknown as readonly [Record<string, unknown>, ...Array<Record<string, unknown>>])
        }
          ON CONFLICT (subject, window_start) DO UPDATE SET count = rate_limit_windows.count + excluded.count
          RETURNING subject, count
        `.pipe(
          Effect.tapCause(() =>
            Effect.sync(() => {
              for (const item of batch) item.window.pending += item.count
            })
          )
        )
        for (const row of rows) {
          const window = windows.get(row.subject)
          if (window !== undefined) window.shared = Number(row.count)
        }
      }).pipe(Effect.catchCause((cause) => Effect.logWarning("Rate limit counts could not be shared", cause)))

      // Windows are placed by this process's clock, so they are pruned by it too.
      const prune = Clock.currentTimeMillis.pipe(
        Effect.flatMap((now) =>
          sql`DELETE FROM rate_limit_windows WHERE window_start < ${new Date(now - 2 * windowMillis)}`
        ),
        Effect.catchCause((cause) => Effect.logWarning("Old rate limit windows could not be removed", cause))
      )

      yield* Effect.forkScoped(Effect.repeat(sync, Schedule.spaced(options.syncInterval ?? Duration.millis(100))))
      yield* Effect.forkScoped(Effect.repeat(prune, Schedule.spaced(Duration.minutes(1))))
      yield* Effect.addFinalizer(() => sync)

      return RateLimiter.of({ consume, limitPerMinute: limit, sync })
    })

  static readonly layer = (options: Options) => Layer.effect(RateLimiter, RateLimiter.make(options))

  static readonly layerConfig = Layer.effect(
    RateLimiter,
    Effect.flatMap(Settings.rateLimitPerMinute, (limitPerMinute) => RateLimiter.make({ limitPerMinute }))
  )
}
