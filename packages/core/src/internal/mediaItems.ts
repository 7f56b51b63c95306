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
  readonly alt?: string | null | undefined
  /** jsonb: the photo's fitted copies (`Media.FittedCopy`), comes back parsed. */
  readonly fitted: ReadonlyArray<{
    readonly maxBytes: number
    readonly extension: string
    readonly bytes: number
    readonly width: number
    readonly height: number
  }> | null | undefined
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
    durationMs: row.durationMs,
    alt: row.alt ?? null,
    fitted: (row.fitted ?? []).map((copy) => ({
      maxBytes: copy.maxBytes,
      url: `${baseUrl}/media/${row.id}.${copy.extension}`,
      bytes: copy.bytes,
      width: copy.width,
      height: copy.height
    }))
  })

/** The columns of `media` that `MediaRow` reads, for a select from `media` aliased `alias`. */
export const columns = (alias: string) =>
  `${alias}.id, ${alias}.kind, ${alias}.mime_type, ${alias}.extension, ${alias}.bytes, ${alias}.width, ${alias}.height,
    ${alias}.duration_ms, ${alias}.alt, ${alias}.fitted`

/** `MediaRow` as a jsonb object, for media gathered into a JSON array with their post. */
export const json = (alias: string) =>
  `jsonb_build_object('id', ${alias}.id, 'kind', ${alias}.kind, 'mimeType', ${alias}.mime_type, 'extension', ${alias}.extension,
    'bytes', ${alias}.bytes, 'width', ${alias}.width, 'height', ${alias}.height, 'durationMs', ${alias}.duration_ms,
    'alt', ${alias}.alt, 'fitted', ${alias}.fitted)`
