import { Clock, Context, Effect, Layer, Option } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { Adapter } from "@herald/adapter-kit"
import { type Post, PostStatus } from "@herald/domain"
import { Cipher } from "./Cipher.ts"
import * as telemetry from "./internal/publishTelemetry.ts"
import * as targetRows from "./internal/targetRows.ts"
import * as targetWrites from "./internal/targetWrites.ts"
import { type TargetRow, words } from "./internal/targetRows.ts"
import { makeSendTarget, type Tally } from "./internal/targetSend.ts"
import * as postEnding from "./internal/postEnding.ts"
import { Networks } from "./Networks.ts"
import * as PostShape from "./PostShape.ts"
import { PublicUrl } from "./PublicUrl.ts"
import { TokenRefresh } from "./TokenRefresh.ts"

/**
 * Sending a post's targets and ending the post: what the post's cluster entity does when its time comes, kept
 * apart from the cluster that schedules and resumes it.
 *
 * The target row is the journal that keeps Herald from posting twice. Before each network call it
 * records which call is under way (`call`), after it the answer (link, or the adapter's progress
 * handle); a target found with `call` still set was interrupted mid-call. A step that may have made the
 * post (`publish`, or a later step the adapter's `makesPost` names) is settled by asking the network (the
 * adapter's `reconcile`) or, where the network cannot tell, failed with an error saying the post may exist;
 * any other step is asked again as a resumed one, which looks first. It is never sent blindly again.
 */

/** Where a test stops the process to show a crash at each step loses nothing and posts nothing twice. */
export type FaultStep = "before-call" | "during-call" | "after-call"

/** Called at each step of a network call; does nothing outside crash tests. */
export const PublishFaults = Context.Reference<
  (step: FaultStep, target: {
    readonly postId: string
    readonly accountId: string
    readonly network: string
    readonly call: "publish" | "poll"
  }) => Effect.Effect<void>
>("@herald/core/Publisher/PublishFaults", { defaultValue: () => () => Effect.void })

export interface Options {
  /**
   * How long a target keeps trying after its first passing fault (a 5xx, a dropped connection, a timeout, a
   * look that failed in passing) before it fails; a call that goes through starts it afresh. A rate-limited
   * answer is waiting, not failing: it does not count (see `internal/pacing.ts` and its deadline).
   */
  readonly retryForMs: number
  /** The cap of the first wait between such tries; doubles each time, up to `maxDelayMs`, each wait drawn at random below it. */
  readonly baseDelayMs: number
  readonly maxDelayMs: number
  /** How long a network may keep a post in processing before the target fails. */
  readonly processingLimitMs: number
  /** Network calls under way at once per network in one process. */
  readonly concurrencyPerNetwork: number
  /** The longest wait between two looks at a post the network is processing, whatever it asks for. */
  readonly pollWaitCapMs: number
  /** A post that starts this long after its time went out late, and its final event says so. */
  readonly lateNoteAfterMs: number
  /** Turns of an account's targets waiting on a rate limit are this far apart (each goes at a random moment within its turn). */
  readonly turnGapMs: number
}

export const defaults: Options = {
  retryForMs: 15 * 60_000,
  baseDelayMs: 1_000,
  maxDelayMs: 60_000,
  processingLimitMs: 6 * 60 * 60 * 1000,
  concurrencyPerNetwork: 16,
  pollWaitCapMs: Number.POSITIVE_INFINITY,
  lateNoteAfterMs: 60_000,
  turnGapMs: 2_000
}

/** How one target ended. */
export type TargetEnd = "published" | "failed" | "gone"

/** A target still to send, as beginning its post read it. */
export type PendingTarget = targetRows.Pending

/** How beginning a scheduled post's run went. */
export type Begin =
  | { readonly _tag: "Started"; readonly lateMs: number; readonly pending: ReadonlyArray<PendingTarget> }
  | { readonly _tag: "Skipped"; readonly reason: string }

export class Publisher extends Context.Service<Publisher, {
  /**
   * Moves a scheduled post whose time has come (same `version`) to `publishing`, or takes up one already
   * `publishing` at that version (sent now, or cut off mid-post); anything else is skipped.
   */
  begin(postId: string, version: number): Effect.Effect<Begin, SqlError.SqlError>
  /**
   * Sends one target to its network until it is published or failed. `loaded` is the target as `begin` read
   * it, to use instead of reading it again: only for the first try, since a try again after a fault must see
   * what the first wrote.
   */
  send(postId: string, accountId: string, loaded?: TargetRow): Effect.Effect<TargetEnd, SqlError.SqlError>
  /**
   * Ends a target that sending could not carry on with (a fault in Herald itself), so that it does not
   * stay pending: a call that may have reached the network says so.
   */
  abandon(postId: string, accountId: string, fault: string): Effect.Effect<TargetEnd, SqlError.SqlError>
  /** Once every target has ended: the post's final status and its event, in one transaction. */
  finish(postId: string, version: number): Effect.Effect<Option.Option<Post.PostStatus>, SqlError.SqlError>
}>()("@herald/core/Publisher") {
  static readonly layer = (options: Partial<Options> = {}) =>
    Layer.effect(
      Publisher,
      Effect.gen(function*() {
        const config = { ...defaults, ...options }
        const sql = yield* SqlClient.SqlClient
        const networks = yield* Networks
        const shape = PostShape.make(networks.all)
        const cipher = yield* Cipher
        const tokenRefresh = yield* TokenRefresh
        const faults = yield* PublishFaults
        const baseUrl = yield* PublicUrl
        const writes = targetWrites.make(sql)
        const beginPost = targetRows.makeBegin(sql, PostStatus.sourceOf("begin"), PostStatus.publishing)

        const begin = Effect.fnUntraced(function*(postId: string, version: number) {
          const now = yield* Clock.currentTimeMillis
          // One statement: the move when it is due, and the post and its pending targets whether it moved or not.
          const read = yield* beginPost(postId, version)
          if (Option.isNone(read)) return { _tag: "Skipped", reason: "deleted" } as const
          const began = read.value
          if (!began.started) {
            if (began.version !== version) return { _tag: "Skipped", reason: "changed since it was scheduled" } as const
            // Already begun: a post sent now (saved `publishing`), or a process that died mid-post has its
            // message delivered again.
            if (began.status === PostStatus.publishing) return { _tag: "Started", lateMs: 0, pending: began.pending } as const
            return { _tag: "Skipped", reason: `now ${began.status}` } as const
          }
          const lateMs = began.scheduledAt === null ? 0 : Math.max(0, now - began.scheduledAt.getTime())
          if (lateMs > config.lateNoteAfterMs) {
            const note = `Went out ${words(lateMs)} after its time (${began.scheduledAt!.toISOString()}): no Herald worker was running then`
            yield* sql`UPDATE posts SET publish_note = ${note} WHERE id = ${postId}`
          }
          return { _tag: "Started", lateMs, pending: began.pending } as const
        })

        const loadTarget = (postId: string, accountId: string) => targetRows.load(sql, postId, accountId)

        /** The post as it goes to `network`. */
        const versionOf = (row: TargetRow, adapter: Adapter.Adapter) =>
          Effect.map(targetRows.optionMedia(sql, shape, row), (media) => targetRows.versionOf(baseUrl, row, adapter, media))

        const fail = (network: string, postId: string, accountId: string, error: string) =>
          Effect.flatMap(targetRows.fail(sql, postId, accountId, error), (ended) =>
            ended ? Effect.as(telemetry.targetEnded(network, "failed"), "failed" as const) : Effect.succeed("failed" as const))

        // The target's link and the post's first publication time, in one statement with other targets'.
        const published = (target: TargetRow, postId: string, accountId: string, result: Adapter.Published) =>
          Effect.gen(function*() {
            const acceptedAt = yield* Clock.currentTimeMillis
            if (yield* writes.published(postId, accountId, result)) {
              yield* telemetry.targetEnded(target.platform, "published")
              yield* telemetry.accepted(target.platform, acceptedAt - target.dueAt.getTime())
            }
            return "published" as const
          })

        // One structured line per target sent, not per network call: the calls it took, the last one's
        // step and answer, and the time spent in them.
        const send = (postId: string, accountId: string, loaded?: TargetRow) => {
          const tally: Tally = { network: "", calls: 0, last: "none", callMs: 0 }
          return Effect.tap(sendTarget(postId, accountId, loaded, tally), (outcome) =>
            tally.network === "" ? Effect.void : Effect.logInfo("target sent").pipe(Effect.annotateLogs({
              post: postId,
              target: accountId,
              network: tally.network,
              outcome,
              calls: tally.calls,
              last: tally.last,
              durationMs: tally.callMs
            })))
        }

        const sendTarget = makeSendTarget({
          config,
          sql,
          networks,
          cipher,
          tokenRefresh,
          faults,
          writes,
          loadTarget,
          versionOf,
          fail,
          published
        })

        const abandon = Effect.fnUntraced(function*(postId: string, accountId: string, fault: string) {
          const found = yield* loadTarget(postId, accountId)
          if (Option.isNone(found)) return "gone" as const
          if (found.value.status !== "pending") return found.value.status
          const mayExist = found.value.call !== null || found.value.handle !== null
          yield* Effect.logError("publishing a target failed inside Herald").pipe(
            Effect.annotateLogs({ post: postId, target: accountId, fault })
          )
          return yield* fail(
            found.value.platform,
            postId,
            accountId,
            `${found.value.platform}: Herald could not finish sending this post (an internal error, logged)` +
              (mayExist ? "; it may have been posted: check the account before retrying" : "; retry the post")
          )
        })

        const finish = postEnding.make(sql, shape, baseUrl)

        return Publisher.of({ begin, send, abandon, finish })
      })
    )
}
