import { iso } from "./rows.ts"

/** A fitted copy of a photo as the `media.fitted` jsonb lists it. */
export interface FittedJson {
  readonly maxBytes: number
  readonly extension: string
  readonly bytes: number
  readonly width: number
  readonly height: number
  readonly quality: number
}

/** A photo's copy fitted to a byte limit; `file` is its name under `/media/`. */
export interface FittedFile {
  readonly maxBytes: number
  readonly file: string
  readonly bytes: number
  readonly width: number
  readonly height: number
  readonly quality: number
}

/** A stored photo or video. `file` and `previewFile` are names under `/media/`. */
export interface StoredMedia {
  readonly id: string
  readonly workspaceId: string
  readonly kind: "image" | "video"
  readonly mimeType: string
  readonly bytes: number
  readonly width: number | null
  readonly height: number | null
  readonly durationMs: number | null
  readonly alt: string | null
  /** Smaller copies made for networks' byte limits, smallest limit first; empty when none was needed. */
  readonly fitted: ReadonlyArray<FittedFile>
  readonly createdAt: string
  readonly file: string
  readonly previewFile: string | null
}

export interface MediaRow {
  readonly id: string
  readonly workspaceId: string
  readonly kind: "image" | "video"
  readonly mimeType: string
  readonly extension: string
  readonly bytes: number | string | bigint
  readonly width: number | null
  readonly height: number | null
  readonly durationMs: number | null
  readonly alt: string | null
  /** jsonb: comes back parsed. */
  readonly fitted: ReadonlyArray<FittedJson>
  readonly createdAt: Date | string
}

/** What `RETURNING` and `SELECT` list for a `MediaRow`. */
export const rowColumns =
  "id, workspace_id, kind, mime_type, extension, bytes, width, height, duration_ms, alt, fitted, created_at"

/** The file name of a photo's copy fitted to `maxBytes`, after its id: `fit1000000.jpg`. */
export const fittedExtension = (maxBytes: number) => `fit${maxBytes}.jpg`

export const toStoredMedia = (row: MediaRow): StoredMedia => ({
  id: row.id,
  workspaceId: row.workspaceId,
  kind: row.kind,
  mimeType: row.mimeType,
  bytes: Number(row.bytes),
  width: row.width,
  height: row.height,
  durationMs: row.durationMs,
  alt: row.alt,
  fitted: row.fitted.map((copy) => ({
    maxBytes: copy.maxBytes,
    file: `${row.id}.${copy.extension}`,
    bytes: copy.bytes,
    width: copy.width,
    height: copy.height,
    quality: copy.quality
  })),
  createdAt: iso(row.createdAt),
  file: `${row.id}.${row.extension}`,
  previewFile: row.kind === "image" ? `${row.id}.preview.jpg` : null
})
