import { Effect, Option } from "effect"
import type { SqlClient } from "effect/sql"
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

/** The target, its account and the post's parts, as they are now: one query. */
export const load = (sql: SqlClient.SqlClient, postId: string, accountId: string) =>
  Effect.map(
    sql<TargetRow>`
      SELECT p.workspace_id, t.platform, t.username, t.status, t.call, t.handle, t.failed_attempts, t.next_attempt_at,
        a.status AS account_status,
        a.network_account_id, a.access_token, a.server AS account_server, p.content, p.platform_content,
        p.first_comment, p.options,
        (SELECT coalesce(jsonb_agg(${sql.literal(mediaItems.json("m"))} ORDER BY pm.position), '[]'::jsonb)
          FROM post_media pm JOIN media m ON m.id = pm.media_id WHERE pm.post_id = p.id) AS media
      FROM post_targets t
      JOIN posts p ON p.id = t.post_id
      LEFT JOIN accounts a ON a.id = t.account_id
      WHERE t.post_id = ${postId} AND t.account_id = ${accountId}`,
    (rows) => Option.fromUndefinedOr(rows[0])
  )

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

/** Ends a pending target as failed with `error`; its waiting state goes, so a retry of the post starts afresh. */
export const fail = (sql: SqlClient.SqlClient, postId: string, accountId: string, error: string) =>
  Effect.as(
    sql`
      UPDATE post_targets SET status = 'failed', error = ${error}, call = NULL, ended_at = now(),
        failed_attempts = 0, next_attempt_at = NULL, rate_limited_since = NULL
      WHERE post_id = ${postId} AND account_id = ${accountId} AND status = 'pending'`,
    "failed" as const
  )
