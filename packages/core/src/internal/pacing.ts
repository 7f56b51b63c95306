import { Effect, Option, Random, Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import { dieOnBadRow, Timestamp } from "./rows.ts"
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

const TargetKey = Schema.Struct({ postId: Schema.String, accountId: Schema.String })

// The statements are made per call, off the hot path: `start` reads its row only when the call may not go,
// `claim` runs only after a rate limit.
const statusOf = (sql: SqlClient.SqlClient) =>
  SqlSchema.findOneOption({
    Request: TargetKey,
    Result: Schema.Struct({ status: Schema.String }),
    execute: ({ accountId, postId }) => sql`
      SELECT status FROM post_targets WHERE post_id = ${postId} AND account_id = ${accountId}`
  })

/**
 * Records the call under way (and counts it), only when it may go: the account is not blocked, and, for a
 * first publishing call or a target that holds a turn, no target of the account holds an earlier turn.
 * A processing check that never waited is not held back by a queue of other posts' first calls. The write
 * itself is `writes.start` (batched with other targets'); the row is read only to say why not.
 */
export const start = (sql: SqlClient.SqlClient, writes: TargetWrites, target: Target, call: "publish" | "poll", nowMs: number) =>
  Effect.gen(function*() {
    if (yield* writes.start(target, call, nowMs)) return { _tag: "Go" } as const
    const row = yield* dieOnBadRow(statusOf(sql)(target))
    return Option.isSome(row) && row.value.status === "pending" ? { _tag: "Wait" } as const : { _tag: "Ended" } as const
  })

export interface Turn {
  /** When the target goes next (its turn plus jitter), epoch milliseconds. */
  readonly at: number
  /** When it first had to wait on a rate limit. */
  readonly waitingSince: number
}

/** The turn taken: the account's next free one, stored on the target with its jitter; none when it is not pending. */
const turnTaken = (sql: SqlClient.SqlClient) =>
  SqlSchema.findOneOption({
    Request: Schema.Struct({
      ...TargetKey.fields,
      blockedUntil: Schema.NullOr(Schema.Date),
      now: Schema.Date,
      gapMs: Schema.Number,
      jitterMs: Schema.Number
    }),
    Result: Schema.Struct({ nextAttemptAt: Timestamp, rateLimitedSince: Timestamp }),
    execute: ({ accountId, blockedUntil, gapMs, jitterMs, now, postId }) => sql`
      WITH pace AS (
        INSERT INTO publish_pacing AS p (account_id, blocked_until, next_turn)
        VALUES (${accountId}, ${blockedUntil}::timestamptz,
          greatest(${blockedUntil}::timestamptz, ${now}::timestamptz) + ${gapMs} * interval '1 millisecond')
        ON CONFLICT (account_id) DO UPDATE SET
          blocked_until = greatest(p.blocked_until, excluded.blocked_until),
          next_turn = greatest(p.next_turn, p.blocked_until, excluded.blocked_until, ${now}::timestamptz)
            + ${gapMs} * interval '1 millisecond'
        RETURNING p.next_turn - ${gapMs} * interval '1 millisecond' AS turn
      )
      UPDATE post_targets SET call = NULL,
        next_attempt_at = (SELECT turn FROM pace) + ${jitterMs} * interval '1 millisecond',
        rate_limited_since = coalesce(rate_limited_since, ${now}::timestamptz)
      WHERE post_id = ${postId} AND account_id = ${accountId} AND status = 'pending'
      RETURNING next_attempt_at, rate_limited_since`
  })

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
    const row = yield* dieOnBadRow(turnTaken(sql)({ ...target, blockedUntil, now, gapMs: options.gapMs, jitterMs }))
    return Option.map(row, (turn): Turn => ({
      at: Date.parse(turn.nextAttemptAt),
      waitingSince: Date.parse(turn.rateLimitedSince)
    }))
  })
