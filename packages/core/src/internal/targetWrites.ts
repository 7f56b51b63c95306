import { Effect, Exit, Request, RequestResolver } from "effect"
import type { SqlClient, SqlError } from "effect/sql"

/**
 * The two writes every target makes, batched: its call recorded as under way before the network call, and
 * its link after. Targets of many posts go at once, and a statement costs Herald about as much CPU as the
 * rest of a target's work (decision 0052), so the writes that several targets ask for in the same turn of
 * the scheduler go as one statement: each row is still written on its own terms (same conditions as one
 * by one), and each target waits for its own answer before it goes on, so the journal's order is kept: under
 * way, then the call, then the answer.
 */

const key = (postId: string, accountId: string) => `${postId}\u0000${accountId}`

interface Start extends Request.Request<boolean, SqlError.SqlError> {
  readonly postId: string
  readonly accountId: string
  readonly call: "publish" | "poll"
  readonly now: Date
}
const Start = Request.of<Start>()

interface Published extends Request.Request<boolean, SqlError.SqlError> {
  readonly postId: string
  readonly accountId: string
  readonly url: string
  readonly id: string
}
const Published = Request.of<Published>()

export interface TargetWrites {
  /**
   * Records the call under way (and counts it), only when it may go: the account is not blocked, and, for a
   * first publishing call or a target that holds a turn, no target of the account holds an earlier turn (see
   * `pacing.ts`). Answers whether it was recorded.
   */
  readonly start: (target: { readonly postId: string; readonly accountId: string }, call: "publish" | "poll", nowMs: number) => Effect.Effect<boolean, SqlError.SqlError>
  /** Ends a pending target as published with its link, and sets the post's first publication time; answers whether it ended it. */
  readonly published: (postId: string, accountId: string, result: { readonly url: string; readonly id: string }) => Effect.Effect<boolean, SqlError.SqlError>
}

export const make = (sql: SqlClient.SqlClient): TargetWrites => {
  const rows = sql.join(", ", false)

  const starts = RequestResolver.make<Start>((entries) =>
    Effect.map(
      sql<{ readonly postId: string; readonly accountId: string }>`
        UPDATE post_targets t SET call = v.call, attempts = t.attempts + 1, next_attempt_at = NULL
        FROM (VALUES ${
        rows(entries.map(({ request }) => sql`(${request.postId}, ${request.accountId}, ${request.call}, ${request.now}::timestamptz)`))
      }) AS v (post_id, account_id, call, now)
        WHERE t.post_id = v.post_id AND t.account_id = v.account_id AND t.status = 'pending'
          AND NOT EXISTS (
            SELECT 1 FROM publish_pacing p
            WHERE p.account_id = t.account_id AND (
              p.blocked_until > v.now
              OR ((v.call = 'publish' OR t.next_attempt_at IS NOT NULL) AND p.next_turn > v.now
                AND (t.next_attempt_at IS NULL OR t.next_attempt_at > v.now))
            )
          )
        RETURNING t.post_id, t.account_id`,
      (started) => {
        const went = new Set(started.map((row) => key(row.postId, row.accountId)))
        for (const { completeUnsafe, request } of entries) completeUnsafe(Exit.succeed(went.has(key(request.postId, request.accountId))))
      }
    )
  )

  // One statement (so one atomic change) for the targets' links and their posts' first publication time.
  const publications = RequestResolver.make<Published>((entries) =>
    Effect.map(
      sql<{ readonly postId: string; readonly accountId: string }>`
        WITH target AS (
          UPDATE post_targets t SET status = 'published', url = v.url, network_post_id = v.id,
            error = NULL, call = NULL, handle = NULL, ended_at = now(), next_attempt_at = NULL, faulting_since = NULL
          FROM (VALUES ${rows(entries.map(({ request }) => sql`(${request.postId}, ${request.accountId}, ${request.url}, ${request.id})`))})
            AS v (post_id, account_id, url, id)
          WHERE t.post_id = v.post_id AND t.account_id = v.account_id AND t.status = 'pending'
          RETURNING t.post_id, t.account_id
        ), post AS (
          UPDATE posts SET published_at = coalesce(published_at, now()) WHERE id IN (SELECT post_id FROM target)
        )
        SELECT post_id, account_id FROM target`,
      (ended) => {
        const done = new Set(ended.map((row) => key(row.postId, row.accountId)))
        for (const { completeUnsafe, request } of entries) completeUnsafe(Exit.succeed(done.has(key(request.postId, request.accountId))))
      }
    )
  )

  return {
    start: (target, call, nowMs) =>
      Effect.request(Start({ postId: target.postId, accountId: target.accountId, call, now: new Date(nowMs) }), starts),
    published: (postId, accountId, result) => Effect.request(Published({ postId, accountId, url: result.url, id: result.id }), publications)
  }
}
