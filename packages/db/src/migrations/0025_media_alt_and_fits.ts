import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// Alt text on media, and the fitted copies of photos (docs/decisions/0032-photos-fitted-to-byte-limits.md).
// `alt` is the description sent to networks that take one (null: none). `fitted` lists the smaller JPEG
// copies made at upload for the byte limits of installed networks that the photo breaks, as
// `[{ maxBytes, extension, bytes, width, height, quality }]`; each copy is a stored file of the media like
// the photo itself (`<id>.fit<maxBytes>.jpg`, in the data folder or `media_files`), so it is removed with it.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE media ADD COLUMN alt text`
  yield* sql`ALTER TABLE media ADD COLUMN fitted jsonb NOT NULL DEFAULT '[]'::jsonb`
})
