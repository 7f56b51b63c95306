import { Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"

/** Sign-in attempts are counted in fixed 15-minute windows (decision 0021). */
const windowMillis = 15 * 60_000

const windowOf = (now: number) => now - (now % windowMillis)

/** Seconds until the current window ends. */
export const retryAfter = (now: number) => Math.max(1, Math.ceil((windowOf(now) + windowMillis - now) / 1000))

/** Adds one to the subject's count in the current window and answers the new count (exact across processes). */
export const count = (sql: SqlClient.SqlClient, subject: string) =>
  Effect.flatMap(Clock.currentTimeMillis, (now) =>
    Effect.map(
      sql<{ readonly count: number }>`
        INSERT INTO sign_in_attempts (subject, window_start, count) VALUES (${subject}, ${new Date(windowOf(now))}, 1)
        ON CONFLICT (subject, window_start) DO UPDATE SET count = sign_in_attempts.count + 1
        RETURNING count`,
      (rows) => Number(rows[0]?.count ?? 0)
    ))

/** Takes one back from each subject's count in the current window (an attempt that turned out right). */
export const forgive = (sql: SqlClient.SqlClient, subjects: ReadonlyArray<string>) =>
  Effect.flatMap(Clock.currentTimeMillis, (now) =>
    Effect.forEach(subjects, (subject) =>
      sql`
        UPDATE sign_in_attempts SET count = count - 1
        WHERE subject = ${subject} AND window_start = ${new Date(windowOf(now))} AND count > 0`, { discard: true }))

/** Drops the windows before the current one's predecessor. */
export const prune = (sql: SqlClient.SqlClient) =>
  Effect.flatMap(Clock.currentTimeMillis, (now) =>
    Effect.asVoid(sql`DELETE FROM sign_in_attempts WHERE window_start < ${new Date(windowOf(now) - windowMillis)}`))
