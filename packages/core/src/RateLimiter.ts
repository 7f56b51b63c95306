import { Clock, Context, Deferred, Duration, Effect, Fiber, Layer, Schedule, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { DatabaseInfo } from "@herald/db"
import { dieOnBadRow } from "./internal/rows.ts"
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
  /**
   * Whether other processes count against the same limits (a PostgreSQL server). Read from `DatabaseInfo`
   * when not given: the embedded database is one process, so its counts stay in memory.
   */
  readonly shared?: boolean | undefined
}

interface Window {
  readonly start: number
  /** Permits this process has taken from the window and not granted yet. */
  held: number
  /** Permits taken from the window by every process, as of this process's last reservation (at most the limit). */
  taken: number
  /** The window's count reached the limit: nothing more can be reserved until it ends. */
  exhausted: boolean
  /** Requests waiting for a permit; the next reservation asks for at least as many. */
  waiting: number
  /** The reservation under way, if any; requests finding no permit held wait for it. */
  reserving: Deferred.Deferred<void> | undefined
}

const windowMillis = 60_000
/** The largest block of permits one reservation takes: what an idle process may hold unused at most. */
const maxBlock = 50
/** A block is at most this fraction of what is left, so the last permits are taken one at a time. */
const blockShare = 8

/**
 * The next block to reserve: a share of what is left, shrinking as the window fills, and never less than
 * the requests already waiting.
 */
const blockSize = (limit: number, window: Window) =>
  Math.min(maxBlock, Math.max(1, Math.floor((limit - window.taken) / blockShare), window.waiting))

// Fixed one-minute windows per subject (an API key, or the client address for requests without a valid key).
// A process grants only permits it has taken from the window beforehand, so every process together never
// admits more than the limit. Over a PostgreSQL server the window's count is a row, and a permit is taken by
// one atomic `INSERT … ON CONFLICT DO UPDATE` that adds a block of requests and returns the new count; the
// block shrinks as the window fills, and the next one is taken while half the current one is left, so most
// requests cost no query. Over the embedded database (one process) the count is kept in memory.
export class RateLimiter extends Context.Service<RateLimiter, {
  consume(subject: string): Effect.Effect<Decision>
  /**
   * `consume` at `now` without an effect, when this process decides at once (it holds a permit, or knows the
   * window is full); undefined, having counted nothing, when the request has to wait for a reservation.
   */
  consumeNow(subject: string, now: number): Decision | undefined
  readonly limitPerMinute: number
}>()("@herald/core/RateLimiter") {
  static readonly make = (options: Options) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const taken = SqlSchema.findOne({
        Request: Schema.Struct({ subject: Schema.String, windowStart: Schema.Date, asked: Schema.Number }),
        // What either driver gives for the count, read with `Number` as before.
        Result: Schema.Struct({ count: Schema.Union([Schema.Number, Schema.String, Schema.BigInt]) }),
        execute: ({ asked, subject, windowStart }) => sql`
          INSERT INTO rate_limit_windows (subject, window_start, count)
          VALUES (${subject}, ${windowStart}, ${asked})
          ON CONFLICT (subject, window_start) DO UPDATE SET count = rate_limit_windows.count + excluded.count
          RETURNING count
        `
      })
      const shared = options.shared ?? (yield* DatabaseInfo.DatabaseInfo).backend === "postgres"
      const scope = yield* Effect.scope
      // Reservations are started from plain code too (`consumeNow`), in this service's own context and scope.
      const runFork = Effect.runForkWith(yield* Effect.context<never>())
      const windows = new Map<string, Window>()
      const limit = options.limitPerMinute
      // The start of the latest window this process opened: its rows are the ones it has to prune.
      let lastOpened = Number.NEGATIVE_INFINITY

      const current = (subject: string, now: number) => {
        const start = now - (now % windowMillis)
        let window = windows.get(subject)
        if (window === undefined || window.start !== start) {
          window = { start, held: 0, taken: 0, exhausted: false, waiting: 0, reserving: undefined }
          windows.set(subject, window)
          lastOpened = Math.max(lastOpened, start)
        }
        return window
      }

      /** Records a reservation of `asked` permits after which the window's count is `count`. */
      const record = (window: Window, asked: number, count: number) => {
        window.held += Math.max(0, Math.min(asked, limit - (count - asked)))
        window.taken = Math.min(count, limit)
        window.exhausted = count >= limit
      }

      const takeShared = (subject: string, window: Window, asked: number) =>
        // An upsert's RETURNING always has its row.
        dieOnBadRow(taken({ subject, windowStart: new Date(window.start), asked })).pipe(
          Effect.catchTag("NoSuchElementError", Effect.die),
          Effect.map((row) => record(window, asked, Number(row.count))),
          // Without the shared count this process still holds the limit on its own.
          Effect.catchCause((cause) =>
            Effect.andThen(
              Effect.logWarning("Rate limit counts could not be shared; counting in this process alone", cause),
              Effect.sync(() => record(window, asked, window.taken + asked))
            )
          )
        )

      /**
       * Starts taking the next block of permits over PostgreSQL, in a fiber of its own so that a request given
       * up by its client cannot lose permits the database has counted; one reservation at a time per window.
       */
      const startReserving = (subject: string, window: Window): Deferred.Deferred<void> => {
        if (window.reserving !== undefined) return window.reserving
        const done = Deferred.makeUnsafe<void>()
        window.reserving = done
        const reservation = takeShared(subject, window, blockSize(limit, window)).pipe(
          Effect.ensuring(Effect.suspend(() => {
            window.reserving = undefined
            return Deferred.succeed(done, undefined)
          }))
        )
        Fiber.runIn(runFork(reservation), scope)
        return done
      }

      /** Takes the next block of permits into `window` in memory (one process counts alone). */
      const reserveLocally = (window: Window) => {
        const asked = blockSize(limit, window)
        record(window, asked, window.taken + asked)
      }

      const decide = (window: Window, now: number): Decision | undefined => {
        const resetSeconds = Math.max(1, Math.ceil((window.start + windowMillis - now) / 1000))
        if (window.held > 0) {
          window.held--
          return { allowed: true, limit, remaining: Math.max(0, limit - window.taken) + window.held, resetSeconds }
        }
        if (window.exhausted) return { allowed: false, limit, remaining: 0, resetSeconds }
        return undefined
      }

      const consumeNow = (subject: string, now: number): Decision | undefined => {
        const window = current(subject, now)
        let decision = decide(window, now)
        if (decision === undefined && !shared) {
          reserveLocally(window)
          decision = decide(window, now)
        }
        if (decision === undefined) return undefined
        // The next block is taken while half of this one is left, so requests rarely wait for it.
        if (
          shared && decision.allowed && !window.exhausted && window.reserving === undefined &&
          window.held * 2 < blockSize(limit, window)
        ) {
          startReserving(subject, window)
        }
        return decision
      }

      const consume = (subject: string): Effect.Effect<Decision> =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const decision = consumeNow(subject, now)
          if (decision !== undefined) return Effect.succeed(decision)
          // Over PostgreSQL with no permit held: wait for the reservation, then decide again.
          const window = current(subject, now)
          window.waiting++
          return Deferred.await(startReserving(subject, window)).pipe(
            Effect.ensuring(Effect.sync(() => window.waiting--)),
            Effect.andThen(Effect.suspend(() => consume(subject)))
          )
        })

      // Windows are placed by this process's clock, so they are pruned by it too.
      const prune = Clock.currentTimeMillis.pipe(
        Effect.tap((now) =>
          Effect.sync(() => {
            for (const [subject, window] of windows) {
              if (window.start + windowMillis <= now && window.reserving === undefined) windows.delete(subject)
            }
          })
        ),
        // Rows go two minutes after their window starts. A process that opened no window since then has no
        // row left to remove, and writes nothing: an idle process costs the database no statement.
        Effect.flatMap((now) =>
          shared && now - lastOpened <= 3 * windowMillis
            ? sql`DELETE FROM rate_limit_windows WHERE window_start < ${new Date(now - 2 * windowMillis)}`
            : Effect.void
        ),
        Effect.catchCause((cause) => Effect.logWarning("Old rate limit windows could not be removed", cause))
      )
      yield* Effect.forkScoped(Effect.repeat(prune, Schedule.spaced(Duration.minutes(1))))

      return RateLimiter.of({ consume, consumeNow, limitPerMinute: limit })
    })

  static readonly layer = (options: Options) => Layer.effect(RateLimiter, RateLimiter.make(options))

  static readonly layerConfig = Layer.effect(
    RateLimiter,
    Effect.flatMap(Settings.rateLimitPerMinute, (limitPerMinute) => RateLimiter.make({ limitPerMinute }))
  )
}
