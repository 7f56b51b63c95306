import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// Sign-in paths beside OAuth (issue 16): each account remembers how it signed in (`oauth` or `credentials`,
// so its tokens are renewed the same way) and its own server on networks of many servers (a Mastodon
// instance, a Bluesky PDS; null on single-host networks). Herald's app registered on such a server is kept
// once per network and server (its secret sealed like tokens) and reused by every account there; a flow
// started on a server remembers it until the callback.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE accounts ADD COLUMN server text`
  yield* sql`ALTER TABLE accounts ADD COLUMN sign_in text NOT NULL DEFAULT 'oauth'`
  yield* sql`ALTER TABLE oauth_states ADD COLUMN server text`
  yield* sql`
    CREATE TABLE network_apps (
      network text NOT NULL,
      server text NOT NULL,
      client_id text NOT NULL,
      client_secret bytea NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (network, server)
    )
  `
})
