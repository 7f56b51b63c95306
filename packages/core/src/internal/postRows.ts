import { Post } from "@herald/domain"
import { iso, isoOrNull } from "./rows.ts"

export interface PostRow {
  readonly id: string
  readonly status: Post.PostStatus
  readonly content: string
  readonly platformContent: Record<string, string>
  readonly firstComment: string | null
  /** jsonb: each network's options as set. */
  readonly options: Record<string, Record<string, unknown>>
  readonly queued: boolean
  readonly scheduledAt: Date | null
  readonly publishedAt: Date | null
  readonly createdAt: Date
  readonly sortAt: Date
  /** jsonb: comes back parsed. */
  readonly targets: ReadonlyArray<TargetJson>
  readonly media: ReadonlyArray<MediaJson>
}

// Targets and media come with the post as JSON arrays, so a page of posts is one query however long.
export const postColumns = `id, status, content, platform_content, first_comment, options, queued, scheduled_at, published_at, created_at, sort_at,
  (SELECT coalesce(jsonb_agg(jsonb_build_object('accountId', t.account_id, 'platform', t.platform,
      'username', t.username, 'status', t.status, 'url', t.url, 'error', t.error) ORDER BY t.position), '[]'::jsonb)
    FROM post_targets t WHERE t.post_id = posts.id) AS targets,
  (SELECT coalesce(jsonb_agg(jsonb_build_object('id', m.id, 'kind', m.kind, 'extension', m.extension, 'alt', m.alt)
      ORDER BY pm.position), '[]'::jsonb)
    FROM post_media pm JOIN media m ON m.id = pm.media_id WHERE pm.post_id = posts.id) AS media`

interface TargetJson {
  readonly accountId: string
  readonly platform: string
  readonly username: string
  readonly status: Post.TargetStatus
  readonly url: string | null
  readonly error: string | null
}

interface MediaJson {
  readonly id: string
  readonly kind: "image" | "video"
  readonly extension: string
  readonly alt: string | null
}

/**
 * A row's post as plain fields, checked by nothing: the rows are Herald's own, written through the post
 * schemas. `hydrate` checks them into `Post` objects; the list page leaves the one check to its response.
 */
export const fieldsOf = (row: PostRow, baseUrl: string) => ({
  id: row.id,
  status: row.status,
  content: row.content,
  platformContent: row.platformContent,
  firstComment: row.firstComment,
  options: row.options,
  queued: row.queued,
  scheduledAt: isoOrNull(row.scheduledAt),
  publishedAt: isoOrNull(row.publishedAt),
  createdAt: iso(row.createdAt),
  media: row.media.map((item) => ({
    id: item.id,
    kind: item.kind,
    url: `${baseUrl}/media/${item.id}.${item.extension}`,
    previewUrl: item.kind === "image" ? `${baseUrl}/media/${item.id}.preview.jpg` : null,
    alt: item.alt
  })),
  targets: row.targets
})

/**
 * A row selected as `to_json` of `postColumns` (the list page's form: one text column, the key under which
 * a post's checked JSON is kept), back as the row the driver would have given. Its timestamps are
 * PostgreSQL's JSON form (microseconds, an offset), read to the millisecond as the driver reads them.
 */
export const rowOfJson = (raw: string): PostRow => {
  // eslint-disable-next-line no-restricted-properties -- the list page's measured fast path: PostgreSQL's `to_json` of known columns, read without a Schema pass
  const json = JSON.parse(raw) as {
    readonly id: string
    readonly status: Post.PostStatus
    readonly content: string
    readonly platform_content: Record<string, string>
    readonly first_comment: string | null
    readonly options: Record<string, Record<string, unknown>>
    readonly queued: boolean
    readonly scheduled_at: string | null
    readonly published_at: string | null
    readonly created_at: string
    readonly sort_at: string
    readonly targets: ReadonlyArray<TargetJson>
    readonly media: ReadonlyArray<MediaJson>
  }
  const date = (value: string) => new Date(value)
  return {
    id: json.id,
    status: json.status,
    content: json.content,
    platformContent: json.platform_content,
    firstComment: json.first_comment,
    options: json.options,
    queued: json.queued,
    scheduledAt: json.scheduled_at === null ? null : date(json.scheduled_at),
    publishedAt: json.published_at === null ? null : date(json.published_at),
    createdAt: date(json.created_at),
    sortAt: date(json.sort_at),
    targets: json.targets,
    media: json.media
  }
}

/** The full post objects of these rows (selected with `postColumns`), in the same order. */
export const hydrate = (rows: ReadonlyArray<PostRow>, baseUrl: string): Array<Post.Post> =>
  rows.map((row) => {
    const fields = fieldsOf(row, baseUrl)
    return new Post.Post({
      ...fields,
      media: fields.media.map((item) => new Post.PostMedia(item)),
      targets: fields.targets.map((target) => new Post.Target(target))
    })
  })
