import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// What the workspace has read in its inbox (decision 0044): each item received from someone else carries
// when it was first marked read, shared by the whole team (an inbox is one queue that any member answers).
// The account's own items never count as unread. Items stored before this migration count as read, so an
// upgrade does not raise a backlog nobody can tell from news. The partial indexes keep the unread counts
// to the few rows that are unread; the account indexes serve the inbox filtered to one account.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE inbox_comments ADD COLUMN read_at timestamptz`
  yield* sql`UPDATE inbox_comments SET read_at = received_at WHERE NOT outgoing`
  yield* sql`ALTER TABLE direct_messages ADD COLUMN read_at timestamptz`
  yield* sql`UPDATE direct_messages SET read_at = now() WHERE NOT outgoing`
  yield* sql`CREATE INDEX inbox_comments_unread ON inbox_comments (account_id) WHERE read_at IS NULL AND NOT outgoing`
  yield* sql`CREATE INDEX direct_messages_unread ON direct_messages (conversation_id) WHERE read_at IS NULL AND NOT outgoing`
  yield* sql`CREATE INDEX inbox_comments_account ON inbox_comments (account_id, created_at DESC, id DESC)`
  yield* sql`CREATE INDEX conversations_account ON conversations (account_id, last_message_at DESC, id DESC)`
})
