import { Effect, Option } from "effect"
import type { SqlClient } from "effect/sql"
import type { Post } from "@herald/domain"
import * as mediaItems from "./mediaItems.ts"
import type { MediaRow } from "./mediaItems.ts"
import { type Draft, versionFor } from "./postRules.ts"

/** A target as publishing reads it: its journal, its account, and the post's parts. */
export interface TargetRow {
  readonly media: ReadonlyArray<MediaRow>
  readonly thumbnail: MediaRow | null
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
  readonly xThread: ReadonlyArray<string>
  readonly instagramFormat: "post" | "story"
  readonly tiktok: Post.TikTokSettings
  readonly firstComment: string | null
  readonly youtubeTitle: string | null
}

const mediaJson = (alias: string) =>
  `jsonb_build_object('id', ${alias}.id, 'kind', ${alias}.kind, 'mimeType', ${alias}.mime_type, 'extension', ${alias}.extension,
    'bytes', ${alias}.bytes, 'width', ${alias}.width, 'height', ${alias}.height, 'durationMs', ${alias}.duration_ms)`

/** The target, its account and the post's parts, as they are now: one query. */
export const load = (sql: SqlClient.SqlClient, postId: string, accountId: string) =>
  Effect.map(
    sql<TargetRow>`
      SELECT p.workspace_id, t.platform, t.username, t.status, t.call, t.handle, t.failed_attempts, t.next_attempt_at,
        a.status AS account_status,
        a.network_account_id, a.access_token, a.server AS account_server, p.content, p.platform_content, p.x_thread, p.instagram_format,
        p.tiktok, p.first_comment, p.youtube_title,
        (SELECT coalesce(jsonb_agg(${sql.literal(mediaJson("m"))} ORDER BY pm.position), '[]'::jsonb)
          FROM post_media pm JOIN media m ON m.id = pm.media_id WHERE pm.post_id = p.id) AS media,
        (SELECT ${sql.literal(mediaJson("th"))} FROM media th WHERE th.id = p.youtube_thumbnail) AS thumbnail
      FROM post_targets t
      JOIN posts p ON p.id = t.post_id
      LEFT JOIN accounts a ON a.id = t.account_id
      WHERE t.post_id = ${postId} AND t.account_id = ${accountId}`,
    (rows) => Option.fromUndefinedOr(rows[0])
  )

/** The post as it goes to `network`. */
export const versionOf = (baseUrl: string, row: TargetRow, network: string) => {
  const mediaItem = (media: MediaRow) => mediaItems.mediaItem(baseUrl, media)
  return versionFor(network, {
    content: row.content,
    platformContent: row.platformContent,
    xThread: row.xThread,
    instagramFormat: row.instagramFormat,
    tiktok: row.tiktok,
    firstComment: row.firstComment,
    youtubeTitle: row.youtubeTitle,
    youtubeThumbnail: row.thumbnail === null ? null : mediaItem(row.thumbnail),
    media: row.media.map(mediaItem)
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
