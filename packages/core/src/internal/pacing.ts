import { Effect, Option, Random } from "effect"
import type { SqlClient } from "effect/sql"
import type { TargetWrites } from "./targetWrites.ts"

/**
 * Taking turns on an account a network is rate limiting. A rate-limited answer blocks the account until
 * the network's reset time (`publish_pacing.blocked_until`); every target of the account that must wait
 * then takes its own turn from the account's next free turn (`next_turn`), one `gapMs` apart, and goes at
 * a random moment within its turn (jitter), so waiting targets do not all fire at the reset instant and
 * the account sends about one call per turn until the network refuses again. The turn is stored on the
 * target (`next_attempt_at`), so a process that restarts mid-wait keeps it. Both rows live in the
 * database, so several Herald processes share one queue per account.
 */

/** How long a target may wait on rate limits, from the first one it met, before it fails. */
export const deadlineMs = 24 * 60 * 60 * 1000

export interface Target {
  readonly postId: string
  readonly accountId: string
}

/**
 * Records the call under way (and counts it), only when it may go: the account is not blocked, and, for a
 * first publishing call or a target that holds a turn, no target of the account holds an earlier turn.
 * A processing check that never waited is not held back by a queue of other posts' first calls. The write
 * itself is `writes.start` (batched with other targets'); the row is read only to say why not.
 */
export const start = (sql: SqlClient.SqlClient, writes: TargetWrites, target: Target, call: "publish" | "poll", nowMs: number) =>
  Effect.gen(function*() {
    if (yield* writes.start(target, call, nowMs)) return { _tag: "Go" } as const
    const [row] = yield* sql<{ readonly status: string }>`
      SELECT status FROM post_targets WHERE post_id = ${target.postId} AND account_id = ${target.accountId}`
    return row?.status === "pending" ? { _tag: "Wait" } as const : { _tag: "Ended" } as const
  })

export interface Turn {
  /** When the target goes next (its turn plus jitter), epoch milliseconds. */
  readonly at: number
  /** When it first had to wait on a rate limit. */
  readonly waitingSince: number
}

/**
 * Takes the account's next free turn for the target and stores it. `blockedForMs` is the network's wait
 * after a rate-limited answer (the account is blocked that long); without it the target only joins the
 * account's queue. `None` when the target is no longer pending.
 */
export const claim = (
  sql: SqlClient.SqlClient,
  target: Target,
  options: { readonly nowMs: number; readonly blockedForMs: number | undefined; readonly gapMs: number }
) =>
  Effect.gen(function*() {
    const now = new Date(options.nowMs)
    const blockedUntil = options.blockedForMs === undefined ? null : new Date(options.nowMs + Math.max(0, options.blockedForMs))
    const jitterMs = Math.floor((yield* Random.next) * options.gapMs)
    const rows = yield* sql<{ readonly nextAttemptAt: Date; readonly rateLimitedSince: Date }>`
      WITH pace AS (
        INSERT INTO publish_pacing AS p (account_id, blocked_until, next_turn)
        VALUES (${target.accountId}, ${blockedUntil}::timestamptz,
          greatest(${blockedUntil}::timestamptz, ${now}::timestamptz) + ${options.gapMs} * interval '1 millisecond')
        ON CONFLICT (account_id) DO UPDATE SET
          blocked_until = greatest(p.blocked_until, excluded.blocked_until),
          next_turn = greatest(p.next_turn, p.blocked_until, excluded.blocked_until, ${now}::timestamptz)
            + ${options.gapMs} * interval '1 millisecond'
        RETURNING p.next_turn - ${options.gapMs} * interval '1 millisecond' AS turn
      )
      UPDATE post_targets SET call = NULL,
        next_attempt_at = (SELECT turn FROM pace) + ${jitterMs} * interval '1 millisecond',
        rate_limited_since = coalesce(rate_limited_since, ${now}::timestamptz)
      WHERE post_id = ${target.postId} AND account_id = ${target.accountId} AND status = 'pending'
      RETURNING next_attempt_at, rate_limited_since`
    return Option.map(Option.fromUndefinedOr(rows[0]), (row): Turn => ({
      at: row.nextAttemptAt.getTime(),
      waitingSince: row.rateLimitedSince.getTime()
    }))
  })
