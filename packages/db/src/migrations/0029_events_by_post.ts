import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// A post's events, in order (`GET /api/v1/posts/:id/events`): found by the post id their data carries, so a
// post page reads its few rows however many events the workspace has.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX events_post ON events ((data->>'postId'), sequence)`
})
