import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// People sign in to the console (issue 15, decision 0021): a person is one e-mail address across workspaces,
// matched to members by address, case-insensitively. Sessions and one-time links keep only a SHA-256 of their
// token, so a copy of the database signs no one in.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE people (
      id text PRIMARY KEY,
      email text NOT NULL,
      name text,
      password_hash text,
      created_at timestamptz NOT NULL DEFAULT now(),
      password_changed_at timestamptz
    )`
  yield* sql`CREATE UNIQUE INDEX people_email ON people (lower(email))`
  yield* sql`
    CREATE TABLE sessions (
      id text PRIMARY KEY,
      person_id text NOT NULL REFERENCES people (id) ON DELETE CASCADE,
      token_hash text NOT NULL UNIQUE,
      csrf_token text NOT NULL,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL,
      last_used_at timestamptz NOT NULL,
      expires_at timestamptz NOT NULL,
      absolute_expires_at timestamptz NOT NULL,
      user_agent text,
      address text,
      via text NOT NULL CHECK (via IN ('password', 'link')),
      must_set_password boolean NOT NULL DEFAULT false,
      revoked_at timestamptz
    )`
  yield* sql`CREATE INDEX sessions_person ON sessions (person_id, created_at)`
  yield* sql`
    CREATE TABLE login_links (
      token_hash text PRIMARY KEY,
      person_id text NOT NULL REFERENCES people (id) ON DELETE CASCADE,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      purpose text NOT NULL CHECK (purpose IN ('first_run', 'sign_in', 'reset')),
      expires_at timestamptz NOT NULL,
      used_at timestamptz
    )`
  // Sign-in attempts per e-mail address and per client address, in fixed 15-minute windows (decision 0021).
  yield* sql`
    CREATE TABLE sign_in_attempts (
      subject text NOT NULL,
      window_start timestamptz NOT NULL,
      count integer NOT NULL,
      PRIMARY KEY (subject, window_start)
    )`
})
