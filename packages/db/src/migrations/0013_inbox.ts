import { Effect } from "effect"
import { SqlClient } from "effect/sql"

// The inbox: comments on the accounts' posts and direct messages, as each network's adapter reads them
// (polled per account from a cursor the network gave), and the replies sent through Herald. A network's
// item is stored once (its id is unique per account or conversation), so a poll that sees it again, or a
// reply Herald sent coming back in a poll, adds nothing.
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE inbox_comments (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      platform text NOT NULL,
      network_comment_id text NOT NULL,
      network_post_id text NOT NULL,
      post_id text REFERENCES posts (id) ON DELETE SET NULL,
      reply_to text,
      author jsonb NOT NULL,
      text text NOT NULL,
      permalink text,
      outgoing boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, network_comment_id)
    )
  `
  yield* sql`CREATE INDEX inbox_comments_workspace ON inbox_comments (workspace_id, created_at DESC, id DESC)`
  yield* sql`
    CREATE TABLE conversations (
      id text PRIMARY KEY,
      workspace_id text NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
      account_id text NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
      platform text NOT NULL,
      network_conversation_id text NOT NULL,
      counterpart jsonb NOT NULL,
      last_message_at timestamptz NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, network_conversation_id)
    )
  `
  yield* sql`CREATE INDEX conversations_workspace ON conversations (workspace_id, last_message_at DESC, id DESC)`
  yield* sql`
    CREATE TABLE direct_messages (
      id text PRIMARY KEY,
      conversation_id text NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
      network_message_id text NOT NULL,
      sender jsonb NOT NULL,
      text text NOT NULL,
      attachments integer NOT NULL DEFAULT 0,
      outgoing boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL,
      UNIQUE (conversation_id, network_message_id)
    )
  `
  yield* sql`CREATE INDEX direct_messages_conversation ON direct_messages (conversation_id, created_at DESC, id DESC)`
  yield* sql`
    CREATE TABLE inbox_cursors (
      account_id text PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
      cursor text,
      next_poll_at timestamptz NOT NULL DEFAULT now(),
      polled_at timestamptz
    )
  `
})
