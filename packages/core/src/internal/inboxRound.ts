import { Clock, Effect, Exit, Metric, Option } from "effect"
import type { SqlClient } from "effect/sql"
import type { Adapter } from "@herald/adapter-kit"
import type { Post } from "@herald/domain"
import * as Metrics from "../Metrics.ts"
import type { Networks } from "../Networks.ts"
import * as PostShape from "../PostShape.ts"
import { addArrived, type Due, makeIntake, nothingArrived, reasonOf, sanitized } from "./inboxIntake.ts"

// One polling round: claim the accounts that are due, read each from its network, store each account's
// read in its own savepoint (one per workspace transaction, whose events commit with its items), and give
// every account that failed, at its network or in storing, a count and a later turn. One account never
// holds back another. Each account read counts in `herald_inbox_rounds_total{network}`, each failed one
// (at its network or in storing) in `herald_inbox_failures_total{network}`.

/** The first retry of a failing account waits this long, doubling with each failure in a row up to `backoffCap`. */
const backoffBase = 60_000
export const backoffCap = 60 * 60_000

/** When an account that failed `failures` times in a row is read again: never sooner than its own interval. */
export const retryDelay = (failures: number, interval: number) =>
  Math.max(interval, Math.min(backoffBase * 2 ** Math.max(0, failures - 1), backoffCap))

interface Failed {
  readonly entry: Due
  readonly stage: "read" | "store"
  readonly reason: string
  /** The network's own wait (rate limited), when it said. */
  readonly retryAfterMs?: number | undefined
}

export const makeRound = (options: {
  readonly sql: SqlClient.SqlClient
  readonly networks: Networks["Service"]
  readonly baseUrl: string
  readonly pollEvery: number
  readonly summaryAbove: number
  readonly accountOf: (due: Due) => Effect.Effect<Option.Option<Adapter.Account>>
}) => {
  const { networks, pollEvery, sql, summaryAbove } = options
  const intake = makeIntake(sql, options.baseUrl, PostShape.make(networks.all).show)
  const withInbox = networks.all.filter((adapter) => adapter.inbox !== undefined).map((adapter) => adapter.network)
  // A network's own least interval (its quota), when it has one.
  const intervalOf = (network: string) =>
    Math.max(pollEvery, networks.all.find((adapter) => adapter.network === network)?.inbox?.pollEveryMs ?? 0)

  const counted = (metric: typeof Metrics.inboxRounds, network: string) =>
    Metric.update(Metric.withAttributes(metric, { network }), 1)

  const recordFailure = Effect.fnUntraced(function*(failed: Failed, now: Date) {
    yield* counted(Metrics.inboxFailures, failed.entry.platform)
    const failures = failed.entry.failures + 1
    const delay = Math.max(retryDelay(failures, intervalOf(failed.entry.platform)), failed.retryAfterMs ?? 0)
    const retryAt = new Date(now.getTime() + delay)
    yield* sql`
      UPDATE inbox_cursors SET failures = ${failures}, last_error = ${failed.reason}, next_poll_at = ${retryAt}
      WHERE account_id = ${failed.entry.accountId}`
    yield* Effect.logWarning(failed.stage === "read" ? "inbox read failed" : "inbox store failed").pipe(
      Effect.annotateLogs({
        network: failed.entry.platform,
        account: failed.entry.accountId,
        workspace: failed.entry.workspaceId,
        failures,
        retryAt: retryAt.toISOString(),
        reason: failed.reason
      })
    )
  })

  // The poll runs several times a minute: with the tracer off, so that a round that found nothing due is no
  // trace; the accounts it found are read in one (`Inbox.pollDue`).
  const claimDue = Effect.fnUntraced(function*(now: Date) {
    // Every connected account of a network with an inbox has a cursor row, due at once when new.
    yield* sql`
      INSERT INTO inbox_cursors (account_id)
      SELECT id FROM accounts WHERE status = 'connected' AND ${sql.in("platform", withInbox)}
      ON CONFLICT (account_id) DO NOTHING`
    // Claimed under a lease (a round that dies leaves them due again soon). Due by the database's clock, the
    // one new rows and wakes are stamped with: this process's clock may be behind it (another host, or only
    // its millisecond against the database's microsecond), and an account woken must not wait a turn.
    const due = yield* sql<Due>`
      UPDATE inbox_cursors c SET next_poll_at = ${new Date(now.getTime() + pollEvery)}
      FROM accounts a
      WHERE a.id = c.account_id AND c.account_id IN (
        SELECT c2.account_id FROM inbox_cursors c2 JOIN accounts a2 ON a2.id = c2.account_id
        WHERE c2.next_poll_at <= now() AND a2.status = 'connected' AND ${sql.in("a2.platform", withInbox)}
        ORDER BY c2.next_poll_at LIMIT 200 FOR UPDATE OF c2 SKIP LOCKED
      )
      RETURNING a.id AS account_id, a.workspace_id, a.platform, a.username, a.network_account_id, a.access_token, a.server, c.cursor, c.failures`
    return due
  }, Effect.withTracerEnabled(false))

  const readDue = Effect.fn("Inbox.pollDue")(function*(due: ReadonlyArray<Due>, now: Date) {
    const failed: Array<Failed> = []
    // The networks first, outside any transaction; an account whose read fails keeps its cursor.
    const read = yield* Effect.forEach(due, (entry) =>
      Effect.gen(function*() {
        const adapter = yield* Effect.orDie(networks.get(entry.platform))
        const account = yield* options.accountOf(entry)
        if (Option.isNone(account) || adapter.inbox === undefined) return Option.none()
        yield* counted(Metrics.inboxRounds, entry.platform)
        const page = yield* Effect.result(adapter.inbox.fetch({ account: account.value, cursor: entry.cursor }))
        if (page._tag === "Failure") {
          failed.push({ entry, stage: "read", reason: page.failure.message, retryAfterMs: page.failure.retryAfterMs })
          return Option.none()
        }
        return Option.some({ entry, page: sanitized(page.success) })
      }), { concurrency: 8 })
    const byWorkspace = new Map<string, Array<{ readonly entry: Due; readonly page: Adapter.InboxPage }>>()
    for (const item of read) {
      if (Option.isNone(item)) continue
      const group = byWorkspace.get(item.value.entry.workspaceId) ?? []
      group.push(item.value)
      byWorkspace.set(item.value.entry.workspaceId, group)
    }
    const postsRead = new Map<string, Option.Option<Post.Post>>()
    let stored = 0
    for (const [workspaceId, group] of byWorkspace) {
      const outcome = yield* Effect.exit(sql.withTransaction(Effect.gen(function*() {
        const arrived = nothingArrived()
        const refused: Array<Failed> = []
        for (const { entry, page } of group) {
          const next = new Date(now.getTime() + intervalOf(entry.platform))
          // A savepoint: an account whose items the database refuses is rolled back alone.
          const result = yield* Effect.exit(sql.withTransaction(intake.store(entry, page, now, next, postsRead)))
          if (Exit.isSuccess(result)) {
            addArrived(arrived, result.value)
          } else {
            refused.push({ entry, stage: "store", reason: reasonOf(result.cause) })
          }
        }
        yield* intake.announce(workspaceId, arrived, summaryAbove)
        return { stored: arrived.stored, refused }
      })))
      if (Exit.isSuccess(outcome)) {
        stored += outcome.value.stored
        failed.push(...outcome.value.refused)
      } else {
        // The workspace's transaction itself failed: none of its accounts' reads were kept.
        const reason = reasonOf(outcome.cause)
        for (const { entry } of group) failed.push({ entry, stage: "store", reason })
      }
    }
    yield* Effect.forEach(failed, (entry) => recordFailure(entry, now), { discard: true })
    return stored
  })

  return Effect.gen(function*() {
    if (withInbox.length === 0) return 0
    const now = new Date(yield* Clock.currentTimeMillis)
    const due = yield* claimDue(now)
    return due.length === 0 ? 0 : yield* readDue(due, now)
  })
}
