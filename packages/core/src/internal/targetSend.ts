import { Clock, type Context, Duration, Effect, identity, Option, Semaphore } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import type { Adapter } from "@herald/adapter-kit"
import type { Cipher } from "../Cipher.ts"
import type { Networks } from "../Networks.ts"
import type { Options, PublishFaults, TargetEnd } from "../Publisher.ts"
import * as PublishPolicy from "../PublishPolicy.ts"
import type { TokenRefresh } from "../TokenRefresh.ts"
import * as pacing from "./pacing.ts"
import * as telemetry from "./publishTelemetry.ts"
import * as retrySchedule from "./retrySchedule.ts"
import * as ServerLimits from "./serverLimits.ts"
import type * as targetRows from "./targetRows.ts"
import type { TargetRow } from "./targetRows.ts"
import type { TargetWrites } from "./targetWrites.ts"

/**
 * Sending one target: the loop around `PublishPolicy.decide` that makes the calls, row writes and waits it
 * asks for, and the per-network permits its calls take. Apart from `Publisher`, which begins and ends posts
 * and writes the target's log line; this is where a target spends its time.
 */

/** The network calls one send made, for its log line. */
export interface Tally {
  network: string
  calls: number
  last: string
  callMs: number
}

type Ended<A> = Effect.Effect<A, SqlError.SqlError>

export const makeSendTarget = (options: {
  readonly config: Options
  readonly sql: SqlClient.SqlClient
  readonly networks: Networks["Service"]
  readonly cipher: Cipher["Service"]
  readonly tokenRefresh: TokenRefresh["Service"]
  readonly faults: Context.Service.Shape<typeof PublishFaults>
  readonly writes: TargetWrites
  readonly loadTarget: (postId: string, accountId: string) => Ended<Option.Option<TargetRow>>
  /** The post as it goes to the target's network. */
  readonly versionOf: (row: TargetRow, adapter: Adapter.Adapter) => Ended<ReturnType<typeof targetRows.versionOf>>
  readonly fail: (network: string, postId: string, accountId: string, error: string) => Ended<"failed">
  readonly published: (target: TargetRow, postId: string, accountId: string, result: Adapter.Published) => Ended<"published">
}) => {
  const { cipher, config, fail, faults, loadTarget, networks, published, sql, tokenRefresh, versionOf, writes } = options
  const gates = new Map<string, Semaphore.Semaphore>()
  const gate = (network: string) => {
    let semaphore = gates.get(network)
    if (semaphore === undefined) {
      semaphore = Semaphore.makeUnsafe(config.concurrencyPerNetwork)
      gates.set(network, semaphore)
    }
    return semaphore
  }

  return Effect.fnUntraced(function*(postId: string, accountId: string, loaded: TargetRow | undefined, tally: Tally) {
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

    // Counted for the target's one log line (see `Publisher`'s `send`).
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
}
