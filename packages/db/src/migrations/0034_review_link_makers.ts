import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// Who made a review link (the member, null for a workspace key): a link approves only while its maker still
// may, so it never does more than who made it (issue 28: an editor's own link approved their own post). Links
// made before keep working as they did.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE review_links ADD COLUMN created_by_member text`
})
