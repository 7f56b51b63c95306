import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// Uploaded photos and videos. The bytes live in the data folder's `media/` under `<id>.<extension>` (photos
// also have `<id>.preview.jpg`); the row records what the upload turned out to be, for posts to check against
// each network's limits. Width, height and duration are null when unknown (a video without a video track).
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE media (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      kind text NOT NULL,
      mime_type text NOT NULL,
      extension text NOT NULL,
      bytes bigint NOT NULL,
      width integer,
      height integer,
      duration_ms integer,
      created_at timestamptz NOT NULL DEFAULT now()
    )
  `
  yield* sql`CREATE INDEX media_workspace ON media (workspace_id, created_at, id)`
})
