import { Effect, Option, Random } from "effect"
import type { SqlClient } from "effect/sql"

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

/** Whether a call may go now. */
export type Start =
  | { readonly _tag: "Go" }
  | { readonly _tag: "Wait" }
  | { readonly _tag: "Ended" }

/**
 * Records the call under way (and counts it), only when it may go: the account is not blocked, and, for a
 * first publishing call or a target that holds a turn, no target of the account holds an earlier turn.
 * A processing check that never waited is not held back by a queue of other posts' first calls.
 */
export const start = (sql: SqlClient.SqlClient, target: Target, call: "publish" | "poll", nowMs: number) =>
  Effect.gen(function*() {
    const now = new Date(nowMs)
    const started = yield* sql<{ readonly status: string }>`
      UPDATE post_targets t SET call = ${call}, attempts = attempts + 1, next_attempt_at = NULL
      WHERE t.post_id = ${target.postId} AND t.account_id = ${target.accountId} AND t.status = 'pending'
        AND NOT EXISTS (
          SELECT 1 FROM publish_pacing p
          WHERE p.account_id = t.account_id AND (
            p.blocked_until > ${now}
            OR ((${call} = 'publish' OR t.next_attempt_at IS NOT NULL) AND p.next_turn > ${now}
              AND (t.next_attempt_at IS NULL OR t.next_attempt_at > ${now}))
          )
        )
      RETURNING t.status`
    if (started.length > 0) return { _tag: "Go" } as const
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
