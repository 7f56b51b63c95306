import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// Inbox hardening. Answers sent through Herald are stored before the network call and settled after it
// (`status`: sending, then sent, failed or unknown), so an answer lost after the call is never sent again
// blindly; an unsettled answer has no network id yet. Each account's intake fails alone: its cursor row
// counts the failures in a row and keeps the last reason, and its next read backs off.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  for (const table of ["inbox_comments", "direct_messages"]) {
    yield* sql`
      ALTER TABLE ${sql(table)}
        ADD COLUMN status text NOT NULL DEFAULT 'received'
          CHECK (status IN ('received', 'sent', 'sending', 'unknown', 'failed')),
        ADD COLUMN failure text
    `
    yield* sql`UPDATE ${sql(table)} SET status = 'sent' WHERE outgoing`
  }
  yield* sql`ALTER TABLE inbox_comments ALTER COLUMN network_comment_id DROP NOT NULL`
  yield* sql`ALTER TABLE direct_messages ALTER COLUMN network_message_id DROP NOT NULL`
  // The answers a read may settle: few, looked up per account or conversation.
  yield* sql`CREATE INDEX inbox_comments_unsettled ON inbox_comments (account_id) WHERE status IN ('sending', 'unknown')`
  yield* sql`CREATE INDEX direct_messages_unsettled ON direct_messages (conversation_id) WHERE status IN ('sending', 'unknown')`
  // One answer of a text in flight per comment or conversation: two requests racing with the same answer
  // store one row, and only the request that stored it sends it (the other answers that row).
  yield* sql`CREATE UNIQUE INDEX inbox_comments_sending ON inbox_comments (reply_to, md5(text)) WHERE status = 'sending'`
  yield* sql`CREATE UNIQUE INDEX direct_messages_sending ON direct_messages (conversation_id, md5(text)) WHERE status = 'sending'`
  yield* sql`
    ALTER TABLE inbox_cursors
      ADD COLUMN failures integer NOT NULL DEFAULT 0,
      ADD COLUMN last_error text
  `
})
