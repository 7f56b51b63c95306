import { Effect, Exit, Option, Request, RequestResolver } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import type { Post } from "@herald/domain"
import * as mediaItems from "./mediaItems.ts"
import type { MediaRow } from "./mediaItems.ts"
import type { Adapter } from "@herald/adapter-kit"
import type * as PostShape from "../PostShape.ts"
import { mediaFieldsOf } from "./postCheck.ts"
import { type Draft, versionFor } from "./postRules.ts"

/** A target as publishing reads it: its journal, its account, and the post's parts. */
export interface TargetRow {
  readonly media: ReadonlyArray<MediaRow>
  readonly workspaceId: string
  readonly platform: string
  readonly username: string
  readonly status: Post.TargetStatus
  readonly call: "publish" | "poll" | null
  readonly handle: string | null
  /** Calls that failed with a passing fault, toward giving up; rate limits are not counted. */
  readonly failedAttempts: number
  /** When the target tries next, if it is waiting. */
  readonly nextAttemptAt: Date | null
  /** The first passing fault of this run, the start of its retry time (`internal/retrySchedule.ts`); null while none. */
  readonly faultingSince: Date | null
  /** The post's time, or its creation for a post sent now: what publishing lag is measured from. */
  readonly dueAt: Date
  readonly accountStatus: string | null
  readonly networkAccountId: string | null
  readonly accessToken: Uint8Array | null
  /** The account's server, on a network of many servers; null on one host. */
  readonly accountServer: string | null
  readonly content: string
  readonly platformContent: Record<string, string>
  readonly firstComment: string | null
  /** jsonb: each network's options as set. */
  readonly options: Record<string, Record<string, unknown>>
}

// What publishing reads of a target, its account and its post (`t`, `a`, `p`): `TargetRow`'s columns.
const columns = `p.workspace_id, t.platform, t.username, t.status, t.call, t.handle, t.failed_attempts, t.next_attempt_at, t.faulting_since,
  coalesce(p.scheduled_at, p.created_at) AS due_at, a.status AS account_status,
  a.network_account_id, a.access_token, a.server AS account_server, p.content, p.platform_content,
  p.first_comment, p.options,
  (SELECT coalesce(jsonb_agg(${mediaItems.json("m")} ORDER BY pm.position), '[]'::jsonb)
    FROM post_media pm JOIN media m ON m.id = pm.media_id WHERE pm.post_id = p.id) AS media`

/** The target, its account and the post's parts, as they are now: one query. */
export const load = (sql: SqlClient.SqlClient, postId: string, accountId: string) =>
  Effect.map(
    sql<TargetRow>`
      SELECT ${sql.literal(columns)}
      FROM post_targets t
      JOIN posts p ON p.id = t.post_id
      LEFT JOIN accounts a ON a.id = t.account_id
      WHERE t.post_id = ${postId} AND t.account_id = ${accountId}`,
    (rows) => Option.fromUndefinedOr(rows[0])
  )

/** A pending target as beginning its post read it. */
export interface Pending {
  readonly accountId: string
  readonly row: TargetRow
}

/** Beginning a post: whether this statement moved it to `publishing`, what it was, and its pending targets. */
interface Began {
  readonly started: boolean
  /** The post's status and version before the statement. */
  readonly status: Post.PostStatus
  readonly version: number
  readonly scheduledAt: Date | null
  readonly pending: ReadonlyArray<Pending>
}

interface Begin extends Request.Request<Option.Option<Began>, SqlError.SqlError> {
  readonly postId: string
  readonly version: number
}
const Begin = Request.of<Begin>()

type BeginRow = TargetRow & {
  readonly postId: string
  readonly postStatus: Post.PostStatus
  readonly postVersion: number
  readonly started: boolean
  readonly scheduledAt: Date | null
  readonly accountId: string | null
}

/**
 * Moves a post from `from` to `to` (`publishing`) if it is still at `version`, and reads it with every pending
 * target as sending needs it: one statement, whether it moved or not (a post sent now is saved `publishing`),
 * shared by the posts that begin in the same turn of the scheduler (see targetWrites.ts). `None` when the
 * post is gone.
 */
export const makeBegin = (sql: SqlClient.SqlClient, from: Post.PostStatus, to: Post.PostStatus) => {
  const resolver = RequestResolver.make<Begin>((entries) =>
    Effect.map(
      sql<BeginRow>`
        WITH v (post_id, version) AS (VALUES ${
        sql.join(", ", false)(entries.map(({ request }) => sql`(${request.postId}, ${request.version}::int)`))
      }), started AS (
          UPDATE posts SET status = ${to}, updated_at = now()
          FROM v
          WHERE posts.id = v.post_id AND posts.version = v.version AND posts.status = ${from}
          RETURNING posts.id
        )
        SELECT p.id AS post_id, p.status AS post_status, p.version AS post_version,
          p.id IN (SELECT id FROM started) AS started, p.scheduled_at, t.account_id, ${sql.literal(columns)}
        FROM v
        JOIN posts p ON p.id = v.post_id
        LEFT JOIN post_targets t ON t.post_id = p.id AND t.status = 'pending'
        LEFT JOIN accounts a ON a.id = t.account_id
        ORDER BY p.id, t.position`,
      (rows) => {
        const byPost = new Map<string, Array<BeginRow>>()
        for (const row of rows) byPost.set(row.postId, [...(byPost.get(row.postId) ?? []), row])
        for (const { completeUnsafe, request } of entries) {
          const own = byPost.get(request.postId)
          completeUnsafe(Exit.succeed(
            own === undefined ? Option.none() : Option.some({
              started: own[0]!.started,
              status: own[0]!.postStatus,
              version: own[0]!.postVersion,
              scheduledAt: own[0]!.scheduledAt,
              pending: own.flatMap((row) => row.accountId === null ? [] : [{ accountId: row.accountId, row }])
            })
          ))
        }
      }
    )
  )
  return (postId: string, version: number) => Effect.request(Begin({ postId, version }), resolver)
}

/**
 * The media the network's option fields name (a thumbnail), as they are now; none when it names none.
 * Gone media are left out, and the version goes without them.
 */
export const optionMedia = (sql: SqlClient.SqlClient, shape: PostShape.PostShape, row: TargetRow) => {
  const ids = mediaFieldsOf(shape, row.options).filter((entry) => entry.network === row.platform).map((entry) => entry.id)
  return ids.length === 0
    ? Effect.succeed<ReadonlyArray<MediaRow>>([])
    : sql<MediaRow>`SELECT ${sql.literal(mediaItems.columns("media"))} FROM media
        WHERE workspace_id = ${row.workspaceId} AND ${sql.in("id", ids)}`
}

/** The post as it goes to `adapter`'s network. */
export const versionOf = (
  baseUrl: string,
  row: TargetRow,
  adapter: Pick<Adapter.Adapter, "network" | "options">,
  optionMediaRows: ReadonlyArray<MediaRow>
) => {
  const mediaItem = (media: MediaRow) => mediaItems.mediaItem(baseUrl, media)
  return versionFor(adapter, {
    content: row.content,
    platformContent: row.platformContent,
    options: row.options,
    firstComment: row.firstComment,
    media: row.media.map(mediaItem),
    optionMedia: new Map(optionMediaRows.map((media) => [media.id, mediaItem(media)]))
  } satisfies Draft)
}

/** A duration in words for a person: `45 s`, `12 min`, `25 h`. */
export const words = (ms: number) => {
  const seconds = Math.round(ms / 1000)
  if (seconds < 120) return `${seconds} s`
  const minutes = Math.round(seconds / 60)
  return minutes < 120 ? `${minutes} min` : `${Math.round(minutes / 60)} h`
}

/**
 * Ends a pending target as failed with `error`; its waiting state goes, so a retry of the post starts afresh.
 * Answers whether this call ended it (not when it had already ended).
 */
export const fail = (sql: SqlClient.SqlClient, postId: string, accountId: string, error: string) =>
  Effect.map(
    sql`
      UPDATE post_targets SET status = 'failed', error = ${error}, call = NULL, ended_at = now(),
        failed_attempts = 0, next_attempt_at = NULL, rate_limited_since = NULL, faulting_since = NULL
      WHERE post_id = ${postId} AND account_id = ${accountId} AND status = 'pending'
      RETURNING 1`,
    (rows) => rows.length > 0
  )
