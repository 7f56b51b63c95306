import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// Client review: people outside the workspace (a client, a legal team) each have a review profile; a review
// link lets one of them see a post as each network will show it and approve it or ask for changes. The link
// is signed (its row id and expiry), so the table keeps no token.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE review_profiles (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      name text NOT NULL,
      email text,
      created_at timestamptz NOT NULL DEFAULT now()
    )
  `
  yield* sql`CREATE INDEX review_profiles_workspace ON review_profiles (workspace_id, created_at, id)`
  yield* sql`
    CREATE TABLE review_links (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      post_id text NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
      profile_id text NOT NULL REFERENCES review_profiles (id) ON DELETE CASCADE,
      expires_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )
  `
})
