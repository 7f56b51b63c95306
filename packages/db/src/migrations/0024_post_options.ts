import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// Networks own their post options (issue 16, decision 0030): a post keeps one options document, keyed by
// network and then by the adapter's field name, holding only what was set. The five columns the first
// networks' options had move into it, each only where it differs from its default (what the adapters'
// defaults give back anyway), and go.

/** Copies the old option columns of every post into `options`; run again, it writes the same. */
export const moveColumns = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    UPDATE posts SET options = options || jsonb_strip_nulls(jsonb_build_object(
      'x', CASE WHEN x_thread <> '[]'::jsonb THEN jsonb_build_object('xThread', x_thread) END,
      'instagram', CASE WHEN instagram_format <> 'post' THEN jsonb_build_object('instagramFormat', instagram_format) END,
      'tiktok', CASE WHEN tiktok <> '{}'::jsonb THEN jsonb_build_object('tiktok', tiktok) END,
      'youtube', CASE WHEN youtube_title IS NOT NULL OR youtube_thumbnail IS NOT NULL
        THEN jsonb_strip_nulls(jsonb_build_object('youtubeTitle', youtube_title, 'youtubeThumbnail', youtube_thumbnail)) END
    ))
    WHERE x_thread <> '[]'::jsonb OR instagram_format <> 'post' OR tiktok <> '{}'::jsonb
      OR youtube_title IS NOT NULL OR youtube_thumbnail IS NOT NULL`
})

export const dropColumns = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE posts DROP COLUMN x_thread, DROP COLUMN instagram_format, DROP COLUMN tiktok,
      DROP COLUMN youtube_title, DROP COLUMN youtube_thumbnail`
})

export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE posts ADD COLUMN options jsonb NOT NULL DEFAULT '{}'`
  yield* moveColumns
  yield* dropColumns
})
