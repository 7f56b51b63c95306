import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { Inbox as Domain } from "@herald/domain"
import { InboxNotFound } from "./inboxErrors.ts"
import { commentColumns, type CommentRow, conversationColumns, type ConversationRow, toComment, toConversation } from "./inboxRows.ts"

// What the workspace has read (decision 0044): one read mark per received item, shared by the team. Marking
// is idempotent (the first time stays), so two members opening the same item at once both succeed.

export const makeReads = (sql: SqlClient.SqlClient) => {
  const markCommentRead = Effect.fn("Inbox.markCommentRead")(function*(workspaceId: string, commentId: string) {
    const [row] = yield* sql<CommentRow>`
      UPDATE inbox_comments SET read_at = coalesce(read_at, now())
      WHERE id = ${commentId} AND workspace_id = ${workspaceId}
      RETURNING ${sql.literal(commentColumns)}`
    if (row === undefined) return yield* new InboxNotFound({ what: `Comment ${commentId}` })
    return toComment(row)
  })

  /** Reads every message of the conversation received so far; one arriving later is unread again. */
  const markConversationRead = Effect.fn("Inbox.markConversationRead")(function*(workspaceId: string, conversationId: string) {
    return yield* sql.withTransaction(Effect.gen(function*() {
      const [found] = yield* sql<{ readonly id: string }>`
        SELECT id FROM conversations WHERE id = ${conversationId} AND workspace_id = ${workspaceId}`
      if (found === undefined) return yield* new InboxNotFound({ what: `Conversation ${conversationId}` })
      yield* sql`
        UPDATE direct_messages SET read_at = now()
        WHERE conversation_id = ${conversationId} AND read_at IS NULL AND NOT outgoing`
      const [row] = yield* sql<ConversationRow>`SELECT ${sql.literal(conversationColumns)} FROM conversations WHERE id = ${conversationId}`
      return toConversation(row!)
    }))
  })

  /** Every account of the workspace with its unread comments and conversations, and the totals. */
  const unread = Effect.fn("Inbox.unread")(function*(workspaceId: string) {
    const rows = yield* sql<{ readonly accountId: string; readonly platform: string; readonly comments: number; readonly conversations: number }>`
      SELECT a.id AS account_id, a.platform,
        (SELECT count(*) FROM inbox_comments c
          WHERE c.account_id = a.id AND c.read_at IS NULL AND NOT c.outgoing)::int AS comments,
        (SELECT count(DISTINCT m.conversation_id) FROM conversations v JOIN direct_messages m ON m.conversation_id = v.id
          WHERE v.account_id = a.id AND m.read_at IS NULL AND NOT m.outgoing)::int AS conversations
      FROM accounts a WHERE a.workspace_id = ${workspaceId}
      ORDER BY a.platform, a.username, a.id`
    const accounts = rows.map((row) => new Domain.AccountUnread(row))
    return new Domain.Unread({
      comments: accounts.reduce((sum, account) => sum + account.comments, 0),
      conversations: accounts.reduce((sum, account) => sum + account.conversations, 0),
      accounts
    })
  })

  return { markCommentRead, markConversationRead, unread }
}
