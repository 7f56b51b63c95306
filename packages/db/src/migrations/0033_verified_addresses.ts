import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// A person is one e-mail address across workspaces, and their workspaces are the members with that address.
// Holding an invitation link proves nothing about the address (the inviter is shown the link too), so a
// person made by accepting one reaches only the workspaces of the invitations they accepted themselves
// (`accepted_by`) until the address is verified: by signing in with a link only the address or the operator
// was given (a reset link mailed to it, a sign-in link, the first run's console link). People already here
// are taken as verified: nothing tells who set their passwords.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE people ADD COLUMN email_verified_at timestamptz`
  yield* sql`UPDATE people SET email_verified_at = created_at`
  yield* sql`ALTER TABLE invitations ADD COLUMN accepted_by text REFERENCES people (id) ON DELETE SET NULL`
})
