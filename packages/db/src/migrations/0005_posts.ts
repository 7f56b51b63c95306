import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// Posts, their targets (one per account) and attached media in order, and the outbox of events: every
// change writes its event rows in the same transaction, so nothing is announced that did not commit and
// nothing committed goes unannounced.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE posts (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      status text NOT NULL,
      content text NOT NULL,
      platform_content jsonb NOT NULL DEFAULT '{}',
      x_thread jsonb NOT NULL DEFAULT '[]',
      instagram_format text NOT NULL DEFAULT 'post',
      tiktok jsonb NOT NULL DEFAULT '{}',
      first_comment text,
      youtube_title text,
      youtube_thumbnail text,
      queued boolean NOT NULL DEFAULT false,
      scheduled_at timestamptz,
      published_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      version integer NOT NULL DEFAULT 1,
      -- The time a post is listed by: its scheduled time, or its creation when it has none.
      sort_at timestamptz NOT NULL
    )
  `
  yield* sql`CREATE INDEX posts_listing ON posts (workspace_id, sort_at, id)`
  yield* sql`CREATE INDEX posts_listing_status ON posts (workspace_id, status, sort_at, id)`
  yield* sql`
    CREATE TABLE post_targets (
      post_id text NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
      position integer NOT NULL,
      account_id text NOT NULL,
      platform text NOT NULL,
      username text NOT NULL,
      status text NOT NULL DEFAULT 'pending',
      url text,
      error text,
      PRIMARY KEY (post_id, account_id)
    )
  `
  yield* sql`
    CREATE TABLE post_media (
      post_id text NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
      position integer NOT NULL,
      media_id text NOT NULL,
      PRIMARY KEY (post_id, position)
    )
  `
  yield* sql`
    CREATE TABLE events (
      sequence bigserial PRIMARY KEY,
      id uuid NOT NULL UNIQUE,
      workspace_id text NOT NULL,
      event text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      data jsonb NOT NULL
    )
  `
  yield* sql`CREATE INDEX events_workspace ON events (workspace_id, sequence)`
})
