import { DateTime, Duration, Effect, Layer, PrimaryKey, Schedule, Schema } from "effect"
import { ClusterSchema, DeliverAt, Entity } from "effect/cluster"
import { Rpc } from "effect/rpc"
import { SqlClient, SqlSchema } from "effect/sql"
import { PostStatus } from "@herald/domain"
import { DueRow } from "./internal/dueRows.ts"
import { publishSpan } from "./internal/publishTelemetry.ts"
import { dieOnBadRow } from "./internal/rows.ts"
import { type PendingTarget, Publisher } from "./Publisher.ts"
import { Scheduler } from "./Scheduler.ts"

/**
 * Publishing on `effect/cluster`. Scheduling a post sends a persisted message to the post's entity, due at
 * its time (`DeliverAt`) and keyed by post and version so a repeat is dropped. When it arrives the entity
 * re-reads the post and goes on only if it is still scheduled (or, sent now, publishing) at that version; then it sends every target
 * and ends the post. The message stays unprocessed until that is done, so a process that dies part-way has
 * the message delivered again by the runner that takes its shard over, and the work resumes from the
 * targets' own journal (docs/decisions/0004 says why this is not an `effect/workflow`).
 */

/** "Publish post `postId` at `at`, if it is still at `version`." */
export class PublishRequest extends Schema.Class<PublishRequest>("@herald/core/PublishRequest")({
  postId: Schema.String,
  version: Schema.Number,
  at: Schema.DateTimeUtc
}) {
  [PrimaryKey.symbol]() {
    return `${this.postId}/${this.version}`
  }
  [DeliverAt.symbol]() {
    return this.at
  }
}

export const PostEntity = Entity.make("Post", [
  Rpc.make("Publish", { payload: PublishRequest }).annotate(ClusterSchema.Persisted, true)
])

// A database that stops answering holds publishing up rather than losing it: each step is tried again
// until it answers. A step that did reach the network is settled by the target's journal on the next try.
const untilTheDatabaseAnswers = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  effect.pipe(
    Effect.tapCause((cause) => Effect.logWarning("Publishing step failed; trying again", cause)),
    Effect.retry(Schedule.min([Schedule.exponential(Duration.millis(200), 2), Schedule.spaced(Duration.seconds(10))])),
    Effect.orDie
  )

/**
 * Sends the targets still pending, then ends the post. Safe to run again: each step reads where it stands.
 * The first try of each target uses the row `begin` read with the post; a try again reads it anew.
 */
const publishPost = (publisher: Publisher["Service"], postId: string, version: number, pending: ReadonlyArray<PendingTarget>) =>
  Effect.gen(function*() {
    yield* Effect.forEach(
      pending,
      ({ accountId, row }) => {
        let loaded: PendingTarget["row"] | undefined = row
        const once = Effect.suspend(() => {
          const first = loaded
          loaded = undefined
          return publisher.send(postId, accountId, first)
        })
        // A fault in Herald itself ends the target rather than leaving the post publishing forever.
        return untilTheDatabaseAnswers(once.pipe(
          Effect.catchDefect((defect) => publisher.abandon(postId, accountId, String(defect)))
        ))
      },
      { concurrency: "unbounded", discard: true }
    )
    yield* untilTheDatabaseAnswers(publisher.finish(postId, version))
  })

/** The post entity: install in every process that runs publishing work. */
export const workers = PostEntity.toLayer(
  Effect.gen(function*() {
    const publisher = yield* Publisher
    return PostEntity.of({
      Publish: ({ payload }) =>
        Effect.gen(function*() {
          const begun = yield* untilTheDatabaseAnswers(publisher.begin(payload.postId, payload.version))
          if (begun._tag === "Skipped") {
            yield* Effect.logDebug("scheduled publish skipped").pipe(
              Effect.annotateLogs({ post: payload.postId, version: payload.version, reason: begun.reason })
            )
            return
          }
          if (begun.lateMs > 60_000) {
            yield* Effect.logWarning("post went out late").pipe(Effect.annotateLogs({ post: payload.postId, lateMs: begun.lateMs }))
          }
          yield* publishPost(publisher, payload.postId, payload.version, begun.pending)
        }).pipe(publishSpan(payload.postId))
    })
  }),
  { maxIdleTime: Duration.seconds(10) }
)

/** `Scheduler` through the cluster: usable from any process, worker or not. */
export const scheduler = Layer.effect(
  Scheduler,
  Effect.gen(function*() {
    const client = yield* PostEntity.client
    return Scheduler.of({
      schedule: (postId, version, at) =>
        client(postId).Publish(new PublishRequest({ postId, version, at: DateTime.fromDateUnsafe(at) }), { discard: true }).pipe(
          Effect.catchCause((cause) =>
            Effect.logWarning("Scheduling a post failed; the sweep will schedule it", cause).pipe(
              Effect.annotateLogs({ post: postId, version })
            )
          )
        )
    })
  })
)

/**
 * Finds scheduled posts whose time passed without their message arriving (a process stopped between
 * saving the post and sending its message) and schedules them again; a message that is only late, or one
 * already being worked on, is dropped as a repeat. Posts sent now are saved `publishing` with their message
 * sent after the commit, so they are looked for too. Runs at start and then every `every`.
 */
export const sweep = (every: Duration.Input = Duration.seconds(30)) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const schedulerService = yield* Scheduler
    // Written into the statement rather than sent as values: the partial indexes posts_due and
    // posts_publishing_due match only a query whose status is known when it is planned.
    const dueStatuses = sql.literal(PostStatus.due.map((status) => `'${status}'`).join(", "))
    const overdue = SqlSchema.findAll({
      Request: Schema.Void,
      Result: DueRow,
      execute: () => sql`
        SELECT id, version, scheduled_at FROM posts
        WHERE status IN (${dueStatuses}) AND scheduled_at <= now() - interval '30 seconds'
        ORDER BY scheduled_at LIMIT 1000`
    })
    const round = Effect.gen(function*() {
      const due = yield* dieOnBadRow(overdue(undefined))
      yield* Effect.forEach(due, (post) => schedulerService.schedule(post.id, post.version, new Date(post.scheduledAt)), {
        concurrency: 16,
        discard: true
      })
    })
    yield* round.pipe(
      Effect.catchCause((cause) => Effect.logWarning("Publishing sweep failed", cause)),
      Effect.repeat(Schedule.spaced(every)),
      Effect.forkScoped
    )
  }))
