import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// Media bytes in the database, so that every process on one PostgreSQL serves and publishes every upload
// (docs/decisions/0007-media-storage.md). A stored file (`<id>.<extension>`, `extension` being `jpg`,
// `preview.jpg`, `mp4` or `mov`) is a `media_files` row with its size and its bytes cut in 1 MiB
// `media_chunks`, so a byte range reads only the chunks it covers. The embedded database keeps media in the
// data folder instead and leaves these tables empty. Removing a media row removes its files and chunks.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE media_files (
      media_id text NOT NULL REFERENCES media (id) ON DELETE CASCADE,
      extension text NOT NULL,
      bytes bigint NOT NULL,
      PRIMARY KEY (media_id, extension)
    )
  `
  yield* sql`
    CREATE TABLE media_chunks (
      media_id text NOT NULL,
      extension text NOT NULL,
      n integer NOT NULL,
      bytes bytea NOT NULL,
      PRIMARY KEY (media_id, extension, n),
      FOREIGN KEY (media_id, extension) REFERENCES media_files (media_id, extension) ON DELETE CASCADE
    )
  `
  // Photos and videos are compressed already: storing chunks uncompressed spares PostgreSQL a compression
  // attempt on every chunk, and lets a read of part of a chunk fetch only that part.
  yield* sql`ALTER TABLE media_chunks ALTER COLUMN bytes SET STORAGE EXTERNAL`
  // An upload under an Idempotency-Key is the same request again only with the same bytes: the SHA-256 of
  // the first one's body, taken while it streamed, is kept beside its answer.
  yield* sql`ALTER TABLE idempotency_keys ADD COLUMN body_sha256 text`
})
