import { Clock, Context, Duration, Effect, Layer, Schedule, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { PostStatus } from "@herald/domain"
import { DueRow } from "./internal/dueRows.ts"
import { dieOnBadRow } from "./internal/rows.ts"

/**
 * Hands a scheduled post to the publishing engine: the post goes out at `at` if its `version` is still
 * the current one then. The post row stays the truth; a message lost on the way is found again by the
 * engine's sweep, so callers do not wait for or depend on this.
 */
export class Scheduler extends Context.Service<Scheduler, {
  schedule(postId: string, version: number, at: Date): Effect.Effect<void>
}>()("@herald/core/Scheduler") {}

/**
 * When posts are handed to the cluster (decision 0051): only once due within `horizon`. A post further out
 * is picked up by the `handover` round, every `every`, as its time comes within the horizon; `slack` covers
 * the clocks of processes that differ a little (a post may then be handed over twice, which the cluster
 * drops as a repeat).
 */
export interface HandoverOptions {
  readonly horizon: Duration.Duration
  readonly every: Duration.Duration
  readonly slack: Duration.Duration
}

export const defaultHandover: HandoverOptions = {
  horizon: Duration.minutes(2),
  every: Duration.seconds(30),
  slack: Duration.seconds(5)
}

/**
 * The `Scheduler` below it, for posts due within the horizon only. A message per scheduled post cost every
 * create a cluster write and woke the cluster's due check, and kept a message per future post in the
 * cluster's table for that check to pass over: a create cost about a third more of Herald's CPU.
 */
export const nearlyDue = (options: Partial<HandoverOptions> = {}) => {
  const horizon = Duration.toMillis(options.horizon ?? defaultHandover.horizon)
  return Layer.effect(
    Scheduler,
    Effect.gen(function*() {
      const cluster = yield* Scheduler
      return Scheduler.of({
        schedule: (postId, version, at) =>
          Effect.flatMap(Clock.currentTimeMillis, (now) =>
            at.getTime() <= now + horizon ? cluster.schedule(postId, version, at) : Effect.void)
      })
    })
  )
}

/** At most this many posts a round; a full round is followed by the next at once. */
const roundSize = 1000

/**
 * The round that hands over the posts whose time has come within the horizon, in the processes that run
 * publishing. Each round reads from where the last one's horizon ended (less the slack), through the index
 * of scheduled posts by time, a page at a time; the first reads every scheduled post within the horizon.
 */
export const handover = (options: Partial<HandoverOptions> = {}) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const scheduler = yield* Scheduler
    const horizon = Duration.toMillis(options.horizon ?? defaultHandover.horizon)
    const slack = Duration.toMillis(options.slack ?? defaultHandover.slack)
    // Written into the statement: the partial index posts_due matches only a query whose status is known
    // when it is planned.
    const scheduled = sql.literal(`'${PostStatus.scheduled}'`)
    // Where the next read starts: after this time, or after this post at this time while a round pages.
    let from: { readonly at: Date; readonly id: string } | undefined

    const page = SqlSchema.findAll({
      Request: Schema.Struct({
        until: Schema.Date,
        from: Schema.UndefinedOr(Schema.Struct({ at: Schema.Date, id: Schema.String }))
      }),
      Result: DueRow,
      execute: ({ from, until }) => sql`
        SELECT id, version, scheduled_at FROM posts
        WHERE status = ${scheduled} AND scheduled_at <= ${until}
          ${from === undefined ? sql`` : sql`AND (scheduled_at, id) > (${from.at}, ${from.id})`}
        ORDER BY scheduled_at, id LIMIT ${roundSize}`
    })

    const round: Effect.Effect<void, unknown> = Effect.gen(function*() {
      const until = new Date((yield* Clock.currentTimeMillis) + horizon)
      const posts = yield* dieOnBadRow(page({ until, from }))
      yield* Effect.forEach(posts, (post) => scheduler.schedule(post.id, post.version, new Date(post.scheduledAt)), {
        concurrency: 16,
        discard: true
      })
      const last = posts.at(-1)
      // A full page: the rest after its last post, at once.
      if (posts.length === roundSize && last !== undefined) {
        from = { at: new Date(last.scheduledAt), id: last.id }
        return yield* round
      }
      from = { at: new Date(until.getTime() - slack), id: "" }
    })

    yield* round.pipe(
      Effect.catchCause((cause) => Effect.logWarning("Handing posts over to publishing failed", cause)),
      Effect.repeat(Schedule.spaced(options.every ?? defaultHandover.every)),
      Effect.forkScoped
    )
  }))
