import { Effect, FileSystem, Option, Path, Schema, Stream } from "effect"
import type { PlatformError } from "effect/PlatformError"
import type { SqlClient, SqlError } from "effect/sql"
import { removeAll } from "./mediaTemp.ts"

/**
 * Where the bytes of stored media live. Each media has one or two files, named by extension (`jpg` and
 * `preview.jpg` for a photo, `mp4` or `mov` for a video); they never change once stored. Two drivers:
 * the data folder (the embedded database, one process) and chunks in PostgreSQL (`DATABASE_URL`, any
 * number of processes); docs/decisions/0007-media-storage.md has the figures behind the choice.
 */
export interface MediaStore {
  readonly name: "folder" | "database"
  /**
   * Makes the finished files at `sources` (extension and path) the files of media `id` and runs `record`
   * (the media row), all or nothing. The sources are consumed: moved or copied, never left to the caller.
   */
  readonly store: <A, E, R>(
    id: string,
    sources: ReadonlyArray<readonly [extension: string, path: string]>,
    record: Effect.Effect<A, E, R>
  ) => Effect.Effect<A, E | SqlError.SqlError | PlatformError, R>
  /** The size in bytes of a stored file, if there is one. */
  readonly size: (id: string, extension: string) => Effect.Effect<Option.Option<number>, SqlError.SqlError>
  /** Bytes `start` to `end` (inclusive) of a stored file, streamed. */
  readonly read: (
    id: string,
    extension: string,
    start: number,
    end: number
  ) => Stream.Stream<Uint8Array, SqlError.SqlError | PlatformError | MediaGone>
}

/** A file removed while it was being read. */
export class MediaGone extends Schema.TaggedError<MediaGone>()("MediaGone", {}) {}

/** The media folder: `<folder>/<id>.<extension>`. */
export const folder = (fs: FileSystem.FileSystem, path: Path.Path, directory: string): MediaStore => {
  const location = (id: string, extension: string) => path.join(directory, `${id}.${extension}`)
  return {
    name: "folder",
    store: (id, sources, record) => {
      const targets = sources.map(([extension]) => location(id, extension))
      return Effect.forEach(sources, ([extension, source]) => fs.rename(source, location(id, extension)), {
        discard: true
      }).pipe(
        Effect.andThen(record),
        Effect.onError(() => removeAll(fs, [...targets, ...sources.map(([, source]) => source)]))
      )
    },
    size: (id, extension) =>
      fs.stat(location(id, extension)).pipe(
        Effect.map((info) => info.type === "File" ? Option.some(Number(info.size)) : Option.none()),
        Effect.orElseSucceed(() => Option.none())
      ),
    read: (id, extension, start, end) =>
      fs.stream(location(id, extension), { offset: start, bytesToRead: end - start + 1 })
  }
}

/** The size of a `media_chunks` row; every chunk of a file but its last is this long. */
const chunkBytes = 1024 * 1024
const chunksPerQuery = 4

/**
 * PostgreSQL: a `media_files` row per file and its bytes in `media_chunks` of `chunkBytes`. Storing copies
 * the finished file in one transaction with the media row, so a process that dies halfway leaves nothing;
 * a range reads only the chunks it covers.
 */
export const database = (sql: SqlClient.SqlClient, fs: FileSystem.FileSystem): MediaStore => {
  const copyIn = (id: string, extension: string, source: string) =>
    Effect.scoped(Effect.gen(function*() {
      const file = yield* fs.open(source, { flag: "r" })
      const size = Number((yield* file.stat).size)
      yield* sql`INSERT INTO media_files (media_id, extension, bytes) VALUES (${id}, ${extension}, ${size})`
      for (let n = 0; n * chunkBytes < size; n++) {
        const buffer = new Uint8Array(Math.min(chunkBytes, size - n * chunkBytes))
        let filled = 0
        while (filled < buffer.length) {
          const read = yield* file.read(buffer.subarray(filled), { position: BigInt(n * chunkBytes + filled) })
          if (read === 0) return yield* Effect.die(new Error(`${source} ended before its ${size} bytes`))
          filled += read
        }
        yield* sql`INSERT INTO media_chunks (media_id, extension, n, bytes) VALUES (${id}, ${extension}, ${n}, ${buffer})`
      }
      yield* fs.remove(source)
    }))

  // Chunks `first` to `last` of a file, whole: reading a few per query, and whole ones, measured faster than
  // one query per chunk or `substring` of a chunk (docs/decisions/0007-media-storage.md).
  const chunks = (id: string, extension: string, first: number, last: number) =>
    Effect.flatMap(
      sql<{ readonly n: number; readonly bytes: Uint8Array }>`
        SELECT n, bytes FROM media_chunks
        WHERE media_id = ${id} AND extension = ${extension} AND n BETWEEN ${first} AND ${last} ORDER BY n`,
      (rows) => rows.length === last - first + 1 ? Effect.succeed(rows) : Effect.fail(new MediaGone())
    )

  return {
    name: "database",
    store: (id, sources, record) =>
      sql.withTransaction(Effect.gen(function*() {
        const result = yield* record
        for (const [extension, source] of sources) yield* copyIn(id, extension, source)
        return result
      })).pipe(
        Effect.onError(() => removeAll(fs, sources.map(([, source]) => source)))
      ),
    size: (id, extension) =>
      Effect.map(
        sql<{ readonly bytes: number | string | bigint }>`
          SELECT bytes FROM media_files WHERE media_id = ${id} AND extension = ${extension}`,
        (rows) => Option.map(Option.fromNullishOr(rows[0]), (row) => Number(row.bytes))
      ),
    read: (id, extension, start, end) => {
      const first = Math.floor(start / chunkBytes)
      const last = Math.floor(end / chunkBytes)
      return Stream.range(0, Math.floor((last - first) / chunksPerQuery), 1).pipe(
        // The next chunks are fetched while these are sent: two queries in flight, 8 MiB held at most.
        Stream.mapEffect((batch) => {
          const from = first + batch * chunksPerQuery
          return chunks(id, extension, from, Math.min(from + chunksPerQuery - 1, last))
        }, { concurrency: 2 }),
        Stream.flattenIterable,
        Stream.map(({ bytes, n }) =>
          bytes.subarray(Math.max(start - n * chunkBytes, 0), Math.min(end - n * chunkBytes + 1, bytes.length))
        )
      )
    }
  }
}
