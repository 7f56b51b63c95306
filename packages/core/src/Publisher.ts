import { Clock, Context, Duration, Effect, identity, Layer, Option, Semaphore } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { Adapter } from "@herald/adapter-kit"
import { type Post, PostStatus } from "@herald/domain"
import { Cipher } from "./Cipher.ts"
import * as pacing from "./internal/pacing.ts"
import * as retrySchedule from "./internal/retrySchedule.ts"
import * as telemetry from "./internal/publishTelemetry.ts"
import * as ServerLimits from "./internal/serverLimits.ts"
import * as targetRows from "./internal/targetRows.ts"
import * as targetWrites from "./internal/targetWrites.ts"
import { type TargetRow, words } from "./internal/targetRows.ts"
import * as postEnding from "./internal/postEnding.ts"
import { Networks } from "./Networks.ts"
import * as PostShape from "./PostShape.ts"
import * as PublishPolicy from "./PublishPolicy.ts"
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
        const gates = new Map<string, Semaphore.Semaphore>()
        const gate = (network: string) => {
          let semaphore = gates.get(network)
          if (semaphore === undefined) {
            semaphore = Semaphore.makeUnsafe(config.concurrencyPerNetwork)
            gates.set(network, semaphore)
          }
          return semaphore
        }

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

        /** The network calls one send made, for its log line. */
        interface Tally {
          network: string
          calls: number
          last: string
          callMs: number
        }

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

        const sendTarget = Effect.fnUntraced(function*(postId: string, accountId: string, loaded: TargetRow | undefined, tally: Tally) {
          const found = loaded === undefined ? yield* loadTarget(postId, accountId) : Option.some(loaded)
          if (Option.isNone(found)) return "gone" as const
          const target = found.value
          if (target.status !== "pending") return target.status
          tally.network = target.platform
          const failed = (error: string) => fail(target.platform, postId, accountId, error)
          const accept = (result: Adapter.Published) => published(target, postId, accountId, result)
          const site = { network: target.platform, postId, accountId }
          const adapter = yield* Effect.option(networks.get(target.platform))
          if (Option.isNone(adapter)) {
            return yield* failed(`${target.platform}: this installation no longer offers the network`)
          }
          const network = adapter.value
          const who = `@${target.username} on ${network.name}`
          if (target.accountStatus === null || target.accountStatus === "disconnected") {
            return yield* failed(`${network.network}: ${who} was disconnected; connect it again and retry`)
          }
          if (target.accountStatus === "needs_reconnect") {
            return yield* failed(`${network.network}: ${who} needs reconnecting; reconnect it and retry`)
          }
          const version = yield* versionOf(target, network)
          // Checked again at its time: media can be gone, or the network's limits changed, since it was saved.
          if (target.handle === null && target.call === null) {
            const limited = yield* ServerLimits.forServer(network, target.accountServer).pipe(
              network.limitsFor === undefined || target.accountServer === null ? identity : telemetry.networkSpan("limitsFor", site)
            )
            const violations = limited.validate(version)
            if (violations.length > 0) {
              return yield* failed(violations.map((violation) => violation.message).join("; "))
            }
          }

          const accountFor = Effect.fnUntraced(function*() {
            const rows = yield* sql<{ readonly accessToken: Uint8Array | null; readonly networkAccountId: string | null; readonly server: string | null }>`
              SELECT access_token, network_account_id, server FROM accounts WHERE id = ${accountId}`
            const sealed = rows[0]?.accessToken ?? null
            if (sealed === null) return Option.none<Adapter.Account>()
            const token = yield* Effect.option(cipher.open(sealed))
            return Option.map(token, (accessToken): Adapter.Account => ({
              networkAccountId: rows[0]?.networkAccountId ?? "",
              username: target.username,
              accessToken,
              server: rows[0]?.server ?? null
            }))
          })

          const policyNetwork: PublishPolicy.Network = {
            network: network.network,
            name: network.name,
            who,
            canReconcile: network.reconcile !== undefined,
            makesPost: (handle) => network.makesPost?.(handle) === true
          }

          // Counted for the target's one log line (see `send`).
          const logAttempt = (step: "publish" | "poll" | "reconcile", outcome: string, startedAt: number) =>
            Effect.map(Clock.currentTimeMillis, (now) => {
              tally.calls++
              tally.last = `${step}:${outcome}`
              tally.callMs += now - startedAt
            })

          const reconcile = Effect.fnUntraced(function*(input: Adapter.ReconcileInput) {
            if (network.reconcile === undefined) return { _tag: "Unknown" } as const
            const startedAt = yield* Clock.currentTimeMillis
            const found = yield* Effect.result(network.reconcile(input).pipe(telemetry.networkSpan("reconcile", site)))
            yield* logAttempt(
              "reconcile",
              found._tag === "Failure" ? found.failure.reason._tag : Option.isSome(found.success) ? "found" : "absent",
              startedAt
            )
            if (found._tag === "Failure") {
              // A look that failed in passing is tried again on the schedule; one that cannot tell ends it.
              return found.failure.retryable || found.failure.reason._tag === "AuthExpired"
                ? { _tag: "Passing", error: found.failure } as const
                : { _tag: "Unknown" } as const
            }
            return Option.isSome(found.success)
              ? { _tag: "Found", published: found.success.value } as const
              : { _tag: "Absent" } as const
          })

          // The token came with the target; it is read again only after a renewal.
          const openToken = (sealed: Uint8Array | null) =>
            sealed === null
              ? Effect.succeed(Option.none<Adapter.Account>())
              : Effect.map(Effect.option(cipher.open(sealed)), Option.map((accessToken): Adapter.Account => ({
                networkAccountId: target.networkAccountId ?? "",
                username: target.username,
                accessToken,
                server: target.accountServer
              })))
          let account = yield* openToken(target.accessToken)
          if (Option.isNone(account)) {
            return yield* failed(`${network.network}: ${who} has no usable token; reconnect it and retry`)
          }
          const processingSince = yield* Clock.currentTimeMillis
          // Stored on the row, so a restart mid-wait keeps the schedule's start and the time of the next try.
          let state = PublishPolicy.start(policyNetwork, {
            handle: target.handle,
            call: target.call,
            failedAttempts: target.failedAttempts,
            faultingSince: target.faultingSince?.getTime() ?? null
          }, processingSince)
          let nextAttemptAt = target.nextAttemptAt?.getTime() ?? 0
          const input = (): Adapter.PublishInput => ({
            account: (account as Option.Some<Adapter.Account>).value,
            post: version,
            publication: `${postId}/${accountId}`,
            ...(state.resumed ? { resumed: true } : {})
          })
          /** What `reconcile` is asked with: a later step's handle names what that step was given. */
          const lookingFor = (at: PublishPolicy.Step): Adapter.ReconcileInput =>
            at.call === "poll" ? { ...input(), handle: at.handle } : input()
          const here = { postId, accountId }

          const loadStatus = () =>
            Effect.map(loadTarget(postId, accountId), (found) => Option.isNone(found) ? "gone" as const : found.value.status as TargetEnd)

          const write = (change: PublishPolicy.Write) => {
            switch (change._tag) {
              case "Progressed":
                return sql`UPDATE post_targets SET faulting_since = NULL, failed_attempts = 0
                  WHERE post_id = ${postId} AND account_id = ${accountId} AND status = 'pending'`
              case "Mark":
                return sql`UPDATE post_targets SET call = ${change.call} WHERE post_id = ${postId} AND account_id = ${accountId}`
              case "Handle":
                return sql`
                  UPDATE post_targets SET call = NULL, handle = ${change.handle}
                  WHERE post_id = ${postId} AND account_id = ${accountId} AND status = 'pending'`
            }
          }

          /** One network call of the step (`publish` or `poll`), with the account's pacing and the network's permits. */
          const callStep = Effect.fnUntraced(function*() {
            const step = state.step
            const where = { postId, accountId, network: network.network, call: step.call }
            const started = yield* gate(network.network).withPermit(Effect.gen(function*() {
              // Checked with the permit held, so a refusal answered to one call holds back the calls queued behind it.
              const may = yield* pacing.start(sql, writes, here, step.call, yield* Clock.currentTimeMillis)
              if (may._tag !== "Go") return may
              yield* faults("before-call", where)
              const startedAt = yield* Clock.currentTimeMillis
              const result = yield* Effect.result(
                step.call === "publish"
                  ? network.publish(input()).pipe(telemetry.networkSpan("publish", site))
                  : network.poll === undefined
                  ? Effect.die(new Error(`${network.network} answered Processing but has no poll hook`))
                  : network.poll(input(), step.handle).pipe(telemetry.networkSpan("poll", site))
              )
              return { _tag: "Called", result, startedAt } as const
            }))
            if (started._tag === "Ended") return Option.none<PublishPolicy.Answer>()
            if (started._tag === "Wait") return Option.some<PublishPolicy.Answer>({ _tag: "Blocked" })
            const { result, startedAt } = started
            yield* faults("during-call", where)
            yield* logAttempt(step.call, result._tag === "Success" ? result.success._tag : result.failure.reason._tag, startedAt)
            yield* faults("after-call", where)
            return Option.some<PublishPolicy.Answer>(
              result._tag === "Success" ? { _tag: "Answered", step: result.success } : { _tag: "Refused", error: result.failure }
            )
          })

          // The policy decides (`PublishPolicy.decide`); this loop makes its calls, writes and waits.
          let action: PublishPolicy.Action = { _tag: "Go" }
          while (true) {
            let answer: PublishPolicy.Answer
            switch (action._tag) {
              case "Succeed":
                return yield* accept(action.published)
              case "Fail":
                if (action.needsReconnect !== undefined) yield* tokenRefresh.needsReconnect(accountId, action.needsReconnect)
                return yield* failed(action.message)
              case "Sleep":
                if (action.ms > 0) yield* Effect.sleep(Duration.millis(action.ms))
                action = { _tag: "Go" }
                continue
              case "Wait":
                nextAttemptAt = action.until
                action = { _tag: "Go" }
                continue
              case "Backoff": {
                nextAttemptAt = action.at + (yield* retrySchedule.delayMs(config, action.failures))
                yield* sql`
                  UPDATE post_targets SET call = ${action.call}, failed_attempts = ${action.failures}, next_attempt_at = ${new Date(nextAttemptAt)},
                    faulting_since = ${new Date(action.faultingSince)}, late_reason = ${action.lateReason}
                  WHERE post_id = ${postId} AND account_id = ${accountId} AND status = 'pending'`
                action = { _tag: "Go" }
                continue
              }
              case "TakeTurn": {
                // Waiting on the account's rate limit (the network's reset) or on its queue: the account's next free turn.
                const turn = yield* pacing.claim(sql, here, {
                  nowMs: yield* Clock.currentTimeMillis,
                  blockedForMs: action.blockedForMs,
                  gapMs: config.turnGapMs
                })
                if (Option.isNone(turn)) return yield* loadStatus()
                answer = { _tag: "Turn", at: turn.value.at, waitingSince: turn.value.waitingSince, why: action.why }
                break
              }
              case "Refresh": {
                const outcome = yield* tokenRefresh.refresh(accountId).pipe(telemetry.networkSpan("refresh", site))
                if (outcome._tag === "NeedsReconnect") {
                  answer = { _tag: "RefreshRefused", reason: outcome.reason }
                  break
                }
                account = yield* accountFor()
                answer = Option.isNone(account) ? { _tag: "NoToken" } : { _tag: "Refreshed" }
                break
              }
              case "Go": {
                // Until the time is reached by the clock `pacing` reads: a timer may end a little early, and a
                // target that asks for its turn before it has come loses it to the back of the queue.
                for (let waitMs = nextAttemptAt - (yield* Clock.currentTimeMillis); waitMs > 0; waitMs = nextAttemptAt - (yield* Clock.currentTimeMillis)) {
                  yield* Effect.sleep(Duration.millis(waitMs))
                }
                if (PublishPolicy.next(state) === "Reconcile") {
                  answer = yield* reconcile(lookingFor(state.step))
                  break
                }
                const called = yield* callStep()
                if (Option.isNone(called)) return yield* loadStatus()
                answer = called.value
                break
              }
            }
            const decided = PublishPolicy.decide(policyNetwork, config, state, answer, yield* Clock.currentTimeMillis)
            state = decided.state
            for (const change of decided.writes) yield* write(change)
            action = decided.action
          }
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
