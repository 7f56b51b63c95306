import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// A process refreshing an account's tokens claims it for a minute first, so two processes never spend the
// same (rotating) refresh token; the index finds the accounts whose tokens expire soon.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE accounts ADD COLUMN refresh_claimed_until timestamptz`
  yield* sql`CREATE INDEX accounts_token_expiry ON accounts (token_expires_at) WHERE status = 'connected'`
})
