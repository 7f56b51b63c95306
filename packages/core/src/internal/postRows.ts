import { Effect } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import { Post } from "@herald/domain"
import { iso, isoOrNull } from "./rows.ts"

export interface PostRow {
  readonly id: string
  readonly status: Post.PostStatus
  readonly content: string
  readonly platformContent: Record<string, string>
  readonly xThread: ReadonlyArray<string>
  readonly instagramFormat: "post" | "story"
  readonly tiktok: Post.TikTokSettings
  readonly firstComment: string | null
  readonly youtubeTitle: string | null
  readonly youtubeThumbnail: string | null
  readonly queued: boolean
  readonly scheduledAt: Date | null
  readonly publishedAt: Date | null
  readonly createdAt: Date
  readonly sortAt: Date
}

export const postColumns = `id, status, content, platform_content, x_thread, instagram_format, tiktok, first_comment,
  youtube_title, youtube_thumbnail, queued, scheduled_at, published_at, created_at, sort_at`

// jsonb columns come back already parsed (packages/db, internal/client.ts).
const json = <A>(value: unknown): A => value as A

/** The full post objects of these rows, in the same order: targets and media loaded in two queries. */
export const hydrate = Effect.fnUntraced(function*(
  sql: SqlClient.SqlClient,
  rows: ReadonlyArray<PostRow>,
  baseUrl: string
): Effect.fn.Return<Array<Post.Post>, SqlError.SqlError> {
  if (rows.length === 0) return []
  const ids = rows.map((row) => row.id)
  const targets = yield* sql<{
    readonly postId: string
    readonly accountId: string
    readonly platform: string
    readonly username: string
    readonly status: Post.TargetStatus
    readonly url: string | null
    readonly error: string | null
  }>`SELECT post_id, account_id, platform, username, status, url, error FROM post_targets
     WHERE ${sql.in("post_id", ids)} ORDER BY post_id, position`
  const media = yield* sql<{
    readonly postId: string
    readonly mediaId: string
    readonly kind: "image" | "video"
    readonly extension: string
  }>`SELECT pm.post_id, pm.media_id, m.kind, m.extension FROM post_media pm JOIN media m ON m.id = pm.media_id
     WHERE ${sql.in("pm.post_id", ids)} ORDER BY pm.post_id, pm.position`
  return rows.map((row) =>
    new Post.Post({
      id: row.id,
      status: row.status,
      content: row.content,
      platformContent: json(row.platformContent),
      xThread: json(row.xThread),
      xThreadMedia: json<ReadonlyArray<string>>(row.xThread).map(() => []),
      instagramFormat: row.instagramFormat,
      tiktok: json(row.tiktok),
      firstComment: row.firstComment,
      youtubeTitle: row.youtubeTitle,
      youtubeThumbnail: row.youtubeThumbnail,
      queued: row.queued,
      scheduledAt: isoOrNull(row.scheduledAt),
      publishedAt: isoOrNull(row.publishedAt),
      createdAt: iso(row.createdAt),
      media: media.filter((item) => item.postId === row.id).map((item) =>
        new Post.PostMedia({
          id: item.mediaId,
          kind: item.kind,
          url: `${baseUrl}/media/${item.mediaId}.${item.extension}`,
          previewUrl: item.kind === "image" ? `${baseUrl}/media/${item.mediaId}.preview.jpg` : null
        })
      ),
      targets: targets.filter((target) => target.postId === row.id).map((target) =>
        new Post.Target({
          accountId: target.accountId,
          platform: target.platform,
          username: target.username,
          status: target.status,
          url: target.url,
          error: target.error
        })
      )
    })
  )
})
