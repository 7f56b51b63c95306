import { Context, Effect, FileSystem, Layer, Option, Path, Stream } from "effect"
import type { PlatformError } from "effect/PlatformError"
import { SqlClient, type SqlError } from "effect/sql"
import { DatabaseInfo } from "@herald/db"
import * as DieOnSql from "./internal/dieOnSql.ts"
import * as Ids from "./Ids.ts"
import { MediaInvalid, MediaNotFound, MediaTooLarge } from "./internal/mediaErrors.ts"
import { type DetectedType, readVideoHeader } from "./internal/mediaProbe.ts"
import { makeReceive } from "./internal/mediaReceive.ts"
import * as MediaStore from "./internal/mediaStore.ts"
import { type MediaRow, rowColumns, type StoredMedia, toStoredMedia } from "./internal/mediaRows.ts"
import { removeAll, sweepAbandoned } from "./internal/mediaTemp.ts"
import { makeConverter } from "./internal/photo.ts"
import { makeFits, photoByteLimits } from "./internal/photoFits.ts"
import { Networks } from "./Networks.ts"
import * as Settings from "./Settings.ts"

export type { FittedFile, StoredMedia } from "./internal/mediaRows.ts"

export { MediaInvalid, MediaNotFound, MediaTooLarge } from "./internal/mediaErrors.ts"

export type Kind = "image" | "video"

/**
 * The longest alt text kept, in characters (Unicode code points): above what any network takes (but one,
 * which takes 4,086), so a description is never cut, and short enough to stay a description.
 */
export const maxAltLength = 1_500

/** Largest uploads accepted, in bytes (product.md, "Media"). */
export const defaultLimits = { image: 30 * 1024 * 1024, video: 512 * 1024 * 1024 } as const

/** The Content-Types an upload may declare. */
export const acceptedTypes: ReadonlyArray<DetectedType> = [
  "image/jpeg",
  "image/png",
  "image/webp",
  "video/mp4",
  "video/quicktime"
]

// Photos are all stored as JPEG; videos keep their container. A photo's copies fitted to a byte limit are
// `fit<limit>.jpg`.
type Extension = "jpg" | "mp4" | "mov"
const servedTypes: Record<string, string> = {
  jpg: "image/jpeg",
  "preview.jpg": "image/jpeg",
  mp4: "video/mp4",
  mov: "video/quicktime"
}
const fittedPattern = /^fit[1-9][0-9]{0,15}\.jpg$/

export interface UploadInput<E> {
  readonly workspaceId: string
  /** The declared type; parameters such as `; charset=` are ignored. */
  readonly contentType: string
  /** The declared length, when known: a body over the limit is refused before any of it is read. */
  readonly contentLength?: number | undefined
  readonly body: Stream.Stream<Uint8Array, E>
  /** Video metadata the client knows; whatever is missing is read from the file's own header. */
  readonly durationMs?: number | undefined
  readonly width?: number | undefined
  readonly height?: number | undefined
  /** Alt text for the media (`maxAltLength` at most); empty or absent is none. */
  readonly alt?: string | undefined
}

/** What an upload stored, with the SHA-256 (hex) of the bytes received, taken while they streamed. */
export interface Uploaded extends StoredMedia {
  readonly sha256: string
}

/** A media file ready to be served: its size, and any byte range of it (inclusive ends) as a stream. */
export interface ServedFile {
  readonly contentType: string
  readonly bytes: number
  read(start: number, end: number): Stream.Stream<Uint8Array, MediaStore.MediaGone | SqlError.SqlError | PlatformError>
}

export interface Options {
  /**
   * The data folder. Uploads in progress go to `<dataDir>/media/tmp`; stored media to `<dataDir>/media` on
   * the embedded database, and into PostgreSQL (`media_files`, `media_chunks`) with `DATABASE_URL`.
   */
  readonly dataDir: string
  readonly limits?: Partial<Record<Kind, number>> | undefined
}

const idPattern = /^med_[0-9A-Za-z]{16,40}$/

export class Media extends Context.Service<Media, {
  upload<E>(
    input: UploadInput<E>
  ): Effect.Effect<Uploaded, MediaInvalid | MediaTooLarge | E | PlatformError>
  get(workspaceId: string, id: string): Effect.Effect<StoredMedia, MediaNotFound>
  /** Sets or (null) removes the media's alt text. */
  setAlt(
    workspaceId: string,
    id: string,
    alt: string | null
  ): Effect.Effect<StoredMedia, MediaNotFound | MediaInvalid>
  /** `extension` is `jpg`, `mp4`, `mov` or `preview.jpg`; none when there is no such file. */
  file(id: string, extension: string): Effect.Effect<Option.Option<ServedFile>>
}>()("@herald/core/Media") {
  static readonly layer = (options: Options) => Layer.effect(Media, make(options))

  /** The media folder in `HERALD_DATA_DIR`. */
  static readonly layerConfig = Layer.unwrap(Effect.map(Settings.dataDir, (dataDir) => Media.layer({ dataDir })))
}

const make = Effect.fnUntraced(function*(options: Options) {
  const sql = yield* SqlClient.SqlClient
  const fs = yield* FileSystem.FileSystem
  const path = yield* Path.Path
  const limits = { ...defaultLimits, ...options.limits }
  const folder = path.resolve(options.dataDir, "media")
  const tmpFolder = path.join(folder, "tmp")
  yield* fs.makeDirectory(tmpFolder, { recursive: true })
  const store = (yield* DatabaseInfo.DatabaseInfo).backend === "postgres"
    ? MediaStore.database(sql, fs)
    : MediaStore.folder(fs, path, folder)
  const converter = yield* makeConverter
  yield* sweepAbandoned(fs, path, tmpFolder)

  const fail = (message: string) => Effect.fail(new MediaInvalid({ message }))
  const receive = makeReceive(fs)

  type Inserted = Omit<StoredMedia, "createdAt" | "file" | "previewFile" | "fitted"> & {
    readonly fitted: ReadonlyArray<MediaRow["fitted"][number]>
  }
  const insert = (stored: Inserted, extension: Extension) =>
    Effect.map(
      sql<MediaRow>`
        INSERT INTO media (id, workspace_id, kind, mime_type, extension, bytes, width, height, duration_ms, alt, fitted)
        VALUES (${stored.id}, ${stored.workspaceId}, ${stored.kind}, ${stored.mimeType}, ${extension},
          ${stored.bytes}, ${stored.width}, ${stored.height}, ${stored.durationMs}, ${stored.alt},
          ${JSON.stringify(stored.fitted)}::jsonb)
        RETURNING ${sql.literal(rowColumns)}
      `,
      (rows) => toStoredMedia(rows[0]!)
    )

  /** The alt text to keep: none for empty or blank text; refused over `maxAltLength`. */
  const checkAlt = (alt: string | null | undefined) => {
    if (alt === undefined || alt === null || alt.trim() === "") return Effect.succeed(null)
    const length = Array.from(alt.normalize("NFC")).length
    return length <= maxAltLength
      ? Effect.succeed(alt)
      : Effect.fail(new MediaInvalid({ field: "alt", message: `alt is ${length} characters; the limit is ${maxAltLength}` }))
  }

  const upload = Effect.fn("Media.upload")(function*<E>(input: UploadInput<E>) {
    const declared = input.contentType.split(";")[0]!.trim().toLowerCase()
    const type = acceptedTypes.find((accepted) => accepted === declared)
    if (type === undefined) {
      return yield* fail(
        `Content-Type ${declared === "" ? "(none)" : declared} is not accepted; send one of ${acceptedTypes.join(", ")}`
      )
    }
    const kind: Kind = type.startsWith("image/") ? "image" : "video"
    const alt = yield* checkAlt(input.alt)
    const limit = limits[kind]
    if (input.contentLength !== undefined && input.contentLength > limit) {
      return yield* new MediaTooLarge({ kind, limit })
    }
    const id = yield* Ids.make("med")
    const received = path.join(tmpFolder, `${id}.upload`)
    const extension: Extension = kind === "image" ? "jpg" : type === "video/mp4" ? "mp4" : "mov"
    const record = (stored: Omit<Inserted, "id" | "workspaceId" | "kind" | "alt">) =>
      insert({ id, workspaceId: input.workspaceId, kind, alt, ...stored }, extension)

    // Converting, storing and recording are not interrupted halfway (sharp cannot be stopped mid-write, and
    // a file must not outlive its cleanup); if any step fails, every file written so far is removed, and the
    // store keeps nothing of media whose row was not written.
    const keep = Effect.gen(function*() {
      if (kind === "image") {
        const convertedPath = path.join(tmpFolder, `${id}.jpg`)
        const previewPath = path.join(tmpFolder, `${id}.preview.jpg`)
        const converted = yield* converter.convert(received, convertedPath, previewPath).pipe(
          Effect.ensuring(removeAll(fs, [received])),
          Effect.onError(() => removeAll(fs, [convertedPath, previewPath])),
          Effect.catchTag("Unreadable", (error) => fail(error.message))
        )
        // Copies for the installed networks whose photo byte limit the JPEG breaks (decision 0032).
        const networks = yield* Effect.serviceOption(Networks)
        const fits = yield* makeFits(fs, path, converter.fit, {
          folder: tmpFolder,
          id,
          converted: convertedPath,
          bytes: converted.bytes,
          limits: Option.match(networks, { onNone: () => [], onSome: (found) => photoByteLimits(found.all) })
        }).pipe(
          Effect.onError(() => removeAll(fs, [convertedPath, previewPath])),
          Effect.catchTag("Unreadable", (error) => fail(error.message))
        )
        return yield* store.store(
          id,
          [["jpg", convertedPath], ["preview.jpg", previewPath], ...fits.sources],
          record({ mimeType: "image/jpeg", ...converted, durationMs: null, fitted: fits.fitted })
        )
      }
      const known = input.durationMs !== undefined && input.width !== undefined && input.height !== undefined
      const header = known
        ? { durationMs: null, width: null, height: null }
        : yield* readVideoHeader(received).pipe(
          Effect.provideService(FileSystem.FileSystem, fs),
          Effect.catchTag("Unreadable", (error) => fail(error.message))
        )
      const bytes = Number((yield* fs.stat(received)).size)
      return yield* store.store(id, [[extension, received]], record({
        mimeType: type,
        bytes,
        width: input.width ?? header.width,
        height: input.height ?? header.height,
        durationMs: input.durationMs ?? header.durationMs,
        fitted: []
      }))
    }).pipe(Effect.onError(() => removeAll(fs, [received])), Effect.uninterruptible)

    const sha256 = yield* receive(input.body, type, limit, received).pipe(
      Effect.onExit((exit) => exit._tag === "Success" ? Effect.void : removeAll(fs, [received]))
    )
    return { ...(yield* keep), sha256 }
  })

  const get = Effect.fn("Media.get")(function*(workspaceId: string, id: string) {
    const rows = yield* sql<MediaRow>`
      SELECT ${sql.literal(rowColumns)} FROM media WHERE id = ${id} AND workspace_id = ${workspaceId}
    `
    const row = rows[0]
    if (row === undefined) return yield* new MediaNotFound({ mediaId: id })
    return toStoredMedia(row)
  })

  const setAlt = Effect.fn("Media.setAlt")(function*(workspaceId: string, id: string, alt: string | null) {
    const kept = yield* checkAlt(alt)
    const rows = yield* sql<MediaRow>`
      UPDATE media SET alt = ${kept} WHERE id = ${id} AND workspace_id = ${workspaceId}
      RETURNING ${sql.literal(rowColumns)}
    `
    const row = rows[0]
    if (row === undefined) return yield* new MediaNotFound({ mediaId: id })
    return toStoredMedia(row)
  })

  // Serving looks at the stored files only: ids are unguessable, and the files never change once written.
  const file = (id: string, extension: string): Effect.Effect<Option.Option<ServedFile>, SqlError.SqlError> => {
    const contentType = Object.hasOwn(servedTypes, extension)
      ? servedTypes[extension]!
      : fittedPattern.test(extension)
      ? "image/jpeg"
      : undefined
    if (!idPattern.test(id) || contentType === undefined) return Effect.succeed(Option.none())
    return Effect.map(store.size(id, extension), Option.map((bytes) => ({
      contentType,
      bytes,
      read: (start: number, end: number) => store.read(id, extension, start, end)
    })))
  }

  // By hand: `upload` is generic in its stream's error, which the helper's mapped type cannot carry.
  const methods = DieOnSql.service({ get, setAlt, file })
  return Media.of({ upload: (input) => DieOnSql.effect(upload(input)), ...methods })
})
