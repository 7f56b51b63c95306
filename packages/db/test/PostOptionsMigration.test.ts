import { assert, layer } from "@effect/vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { dropColumns, moveColumns } from "../src/migrations/0024_post_options.ts"
import { backends } from "../src/testing.ts"

// Migration 0024 on posts written by the schema before it: the five option columns 0005 made come back
// beside `options`, rows are written into them as the old code did, and the move keeps every value that
// differs from its default (the rest the adapters' defaults give back) without losing a row.

for (const backend of backends()) layer(backend.layer)(`migration 0024 on ${backend.name}`, (it) => {
  it.effect("moves each post's option columns into its options document, then drops them", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // The columns as 0005_posts made them.
      yield* sql`
        ALTER TABLE posts ADD COLUMN x_thread jsonb NOT NULL DEFAULT '[]', ADD COLUMN instagram_format text NOT NULL DEFAULT 'post',
          ADD COLUMN tiktok jsonb NOT NULL DEFAULT '{}', ADD COLUMN youtube_title text, ADD COLUMN youtube_thumbnail text`
      yield* sql`INSERT INTO workspaces (id, name) VALUES ('ws_old', 'Old')`
      const at = new Date("2026-11-01T09:00:00.000Z")
      const rows = [
        { id: "pst_plain", x_thread: "[]", instagram_format: "post", tiktok: "{}", youtube_title: null, youtube_thumbnail: null },
        { id: "pst_all", x_thread: `["two","three"]`, instagram_format: "story", tiktok: `{"privacy":"SELF_ONLY","allowDuet":false}`,
          youtube_title: "A title", youtube_thumbnail: "med_thumb" },
        { id: "pst_title", x_thread: "[]", instagram_format: "post", tiktok: "{}", youtube_title: "Only a title", youtube_thumbnail: null }
      ]
      for (const row of rows) {
        yield* sql`
          INSERT INTO posts (id, workspace_id, status, content, x_thread, instagram_format, tiktok, youtube_title,
            youtube_thumbnail, sort_at)
          VALUES (${row.id}, 'ws_old', 'draft', 'text', ${row.x_thread}::jsonb, ${row.instagram_format}, ${row.tiktok}::jsonb,
            ${row.youtube_title}, ${row.youtube_thumbnail}, ${at})`
      }

      yield* moveColumns
      // Run again (a migration retried), it writes the same.
      yield* moveColumns
      yield* dropColumns

      const moved = yield* sql<{ readonly id: string; readonly options: unknown }>`SELECT id, options FROM posts ORDER BY id`
      assert.deepStrictEqual(moved.map((row) => [row.id, row.options]), [
        ["pst_all", {
          x: { xThread: ["two", "three"] },
          instagram: { instagramFormat: "story" },
          tiktok: { tiktok: { privacy: "SELF_ONLY", allowDuet: false } },
          youtube: { youtubeTitle: "A title", youtubeThumbnail: "med_thumb" }
        }],
        ["pst_plain", {}],
        ["pst_title", { youtube: { youtubeTitle: "Only a title" } }]
      ])
      const columns = yield* sql<{ readonly name: string }>`
        SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'posts'`
      const names = columns.map((column) => column.name)
      for (const gone of ["x_thread", "instagram_format", "tiktok", "youtube_title", "youtube_thumbnail"]) {
        assert.notInclude(names, gone)
      }
    }))
})
