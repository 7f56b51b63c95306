import { PostVersion } from "@herald/adapter-kit"

/** A `media` row as the post checks and the publisher read it (camelCased; `bytes` is a bigint as text on PostgreSQL). */
export interface MediaRow {
  readonly id: string
  readonly kind: "image" | "video"
  readonly mimeType: string
  readonly extension: string
  readonly bytes: number | string
  readonly width: number | null
  readonly height: number | null
  readonly durationMs: number | null
}

/** The row as an adapter sees it, with the public address networks fetch it from. */
export const mediaItem = (baseUrl: string, row: MediaRow) =>
  new PostVersion.MediaItem({
    id: row.id,
    kind: row.kind,
    mimeType: row.mimeType,
    url: `${baseUrl}/media/${row.id}.${row.extension}`,
    bytes: Number(row.bytes),
    width: row.width,
    height: row.height,
    durationMs: row.durationMs
  })
