import { DateTime, Duration, Effect, Layer, PrimaryKey, Schedule, Schema } from "effect"
import { ClusterSchema, DeliverAt, Entity } from "effect/cluster"
import { Rpc } from "effect/rpc"
import { SqlClient } from "effect/sql"
import { Activity, Workflow } from "effect/workflow"
import { Publisher } from "./Publisher.ts"
import { Scheduler } from "./Scheduler.ts"

/**
 * Publishing on `effect/cluster` and `effect/workflow`. Scheduling a post sends a persisted message to
 * the post's entity, due at its time (`DeliverAt`) and keyed by post and version so a repeat is dropped.
 * When it arrives the entity re-reads the post and goes on only if it is still scheduled at that
 * version; then the `PublishPost` workflow sends each target in its own activity and ends the post in a
 * last one. Messages, workflow state and activity results live in the database, so a process that dies
 * has its work resumed by the next runner that owns the shard.
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

export const PublishPost = Workflow.make("PublishPost", {
  payload: { postId: Schema.String, version: Schema.Number },
  idempotencyKey: ({ postId, version }) => `${postId}/${version}`
})

const TargetEnd = Schema.Literals(["published", "failed", "gone"])

// A database that stops answering holds publishing up rather than losing it: each step is tried again
// until it answers. A step that did reach the network is settled by the target's journal on the next try.
const untilTheDatabaseAnswers = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  effect.pipe(
    Effect.tapCause((cause) => Effect.logWarning("Publishing step failed; trying again", cause)),
    Effect.retry(Schedule.min([Schedule.exponential(Duration.millis(200), 2), Schedule.spaced(Duration.seconds(10))])),
    Effect.orDie
  )

/** The entity and the workflow: install in every process that runs publishing work. */
export const workers = Layer.mergeAll(
  PostEntity.toLayer(
    Effect.gen(function*() {
      const publisher = yield* Publisher
      return PostEntity.of({
        Publish: ({ payload }) =>
          untilTheDatabaseAnswers(Effect.gen(function*() {
            const begun = yield* publisher.begin(payload.postId, payload.version)
            if (begun._tag === "Skipped") {
              yield* Effect.logDebug("scheduled publish skipped").pipe(
                Effect.annotateLogs({ post: payload.postId, version: payload.version, reason: begun.reason })
              )
              return
            }
            if (begun.lateMs > 60_000) {
              yield* Effect.logWarning("post went out late").pipe(
                Effect.annotateLogs({ post: payload.postId, lateMs: begun.lateMs })
              )
            }
            yield* PublishPost.execute({ postId: payload.postId, version: payload.version }, { discard: true })
          }))
      })
    }),
    { maxIdleTime: Duration.seconds(10) }
  ),
  PublishPost.toLayer(Effect.fnUntraced(function*({ postId, version }) {
    const publisher = yield* Publisher
    const accountIds = yield* Activity.make({
      name: "targets",
      success: Schema.Array(Schema.String),
      execute: untilTheDatabaseAnswers(publisher.pending(postId))
    })
    yield* Effect.forEach(
      accountIds,
      (accountId) =>
        Activity.make({
          name: `send/${accountId}`,
          success: TargetEnd,
          // A fault in Herald itself ends the target rather than leaving the post publishing forever.
          execute: untilTheDatabaseAnswers(publisher.send(postId, accountId).pipe(
            Effect.catchDefect((defect) => publisher.abandon(postId, accountId, String(defect)))
          ))
        }),
      { concurrency: "unbounded", discard: true }
    )
    yield* Activity.make({
      name: "finish",
      execute: Effect.asVoid(untilTheDatabaseAnswers(publisher.finish(postId, version)))
    })
  }))
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
 * saving the post and sending its message) and schedules them again; a message that is only late is
 * dropped as a repeat. Runs at start and then every `every`.
 */
export const sweep = (every: Duration.Input = Duration.seconds(30)) =>
  Layer.effectDiscard(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const schedulerService = yield* Scheduler
    const round = Effect.gen(function*() {
      const due = yield* sql<{ readonly id: string; readonly version: number; readonly scheduledAt: Date }>`
        SELECT id, version, scheduled_at FROM posts
        WHERE status = 'scheduled' AND scheduled_at <= now() - interval '30 seconds'
        ORDER BY scheduled_at LIMIT 1000`
      yield* Effect.forEach(due, (post) => schedulerService.schedule(post.id, post.version, post.scheduledAt), {
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
