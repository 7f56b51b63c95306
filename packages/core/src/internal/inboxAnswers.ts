import { Clock, Duration, Effect, Schedule } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import type { Adapter, PublishError } from "@herald/adapter-kit"
import * as Events from "../Events.ts"
import * as Ids from "../Ids.ts"
import { InboxNotFound, InboxSendFailed } from "./inboxErrors.ts"
import {
  commentColumns,
  type CommentRow,
  type ConversationRow,
  excerpt,
  messageColumns,
  type MessageRow,
  toComment,
  toMessage
} from "./inboxRows.ts"

// Answers sent through Herald, by the rule publishing follows: the answer is stored first (`sending`, with
// the id the client gets), then sent, then settled (`sent` with the network's id, or `failed` with its
// reason). Should the settle never happen (the process stopped, the database refused), the row stays
// `sending`: the same request again answers it instead of sending twice (as does one right after it went
// out), and the account's next reads
// settle it when the network shows it (inboxIntake.ts), or call its outcome unknown.

/** A repeat of an answer still unsettled within this long is the same request, never a second send. */
const sameRequestWithin = Duration.toMillis(Duration.hours(24))

/**
 * A repeat of an answer that went out this recently is the same request too: two requests sent at the same
 * moment (a double click) may reach the database one after the other, the first settled before the second
 * looks. Past it, the same text again is a new answer.
 */
const doubleSendWithin = Duration.toMillis(Duration.seconds(10))

/** The settle after the network said yes: tried a few times, since the answer did go out. */
const settleRetries = { schedule: Schedule.exponential(Duration.millis(100)), times: 4 }

export interface Sender {
  readonly inbox: Adapter.InboxHooks
  readonly account: Adapter.Account
  readonly platform: string
}

export const makeAnswers = (options: {
  readonly sql: SqlClient.SqlClient
  readonly sender: (accountId: string) => Effect.Effect<Sender, InboxNotFound | InboxSendFailed | SqlError.SqlError>
  readonly conversationOf: (workspaceId: string, conversationId: string) => Effect.Effect<
    ConversationRow & { readonly networkConversationId: string },
    InboxNotFound | SqlError.SqlError
  >
}) => {
  const { sql } = options

  /** The network's refusal settles the row as failed; a call it cannot vouch for leaves its outcome unknown. */
  const refused = (error: PublishError.PublishError) =>
    error.reason._tag === "OutcomeUnknown"
      ? { status: "unknown" as const, failure: `${error.message}; check there before sending it again` }
      : { status: "failed" as const, failure: error.message }

  const ownPerson = (account: Adapter.Account) => ({ id: account.networkAccountId, username: account.username, name: null })

  /**
   * An answer, from its row to the network and back. Its row is one still unsettled with the same text (this
   * request again: answered as it stands, never sent again) or a new `sending` one; the insert yields to a
   * racing twin (one `sending` row per text and thread), which is then found. The network call is
   * interruptible (a request cut off there leaves the row `sending`); once the network has answered, the
   * settle runs to its end.
   */
  const answer = <Row extends { readonly id: string }, Sent>(input: {
    readonly table: "inbox_comments" | "direct_messages"
    /** An unsettled row with the same text in the same thread. */
    readonly find: Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError>
    /** A new `sending` row, unless a twin is being sent. */
    readonly insert: Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError>
    readonly call: Effect.Effect<Sent, PublishError.PublishError>
    /** The row that already holds the network's id for this answer, if a read stored it first. */
    readonly stored: (sent: Sent) => Effect.Effect<ReadonlyArray<Row>, SqlError.SqlError>
    /** Marks the pending row sent, with whatever goes with it. */
    readonly settle: (pending: Row, sent: Sent) => Effect.Effect<Row, SqlError.SqlError>
    /** What the client hears when the settle cannot be stored: it went out. */
    readonly unsettled: (pending: Row, sent: Sent) => Row
    readonly log: Record<string, string>
  }) =>
    Effect.gen(function*() {
      let pending: Row | undefined
      while (pending === undefined) {
        const [waiting] = yield* input.find
        if (waiting !== undefined) return waiting
        ;[pending] = yield* input.insert
      }
      const row = pending
      return yield* Effect.uninterruptibleMask((restore) =>
        Effect.gen(function*() {
          const outcome = yield* Effect.result(restore(input.call))
          if (outcome._tag === "Failure") {
            const settled = refused(outcome.failure)
            yield* sql`UPDATE ${sql(input.table)} SET status = ${settled.status}, failure = ${settled.failure}
              WHERE id = ${row.id} AND status = 'sending'`
            if (settled.status === "failed") return yield* new InboxSendFailed({ message: settled.failure })
            return { ...row, ...settled }
          }
          const sent = outcome.success
          const settle = Effect.gen(function*() {
            // A read that stored the network's item before this settle could match it keeps the one row (and
            // has announced it).
            const [copy] = yield* input.stored(sent)
            if (copy === undefined) return yield* input.settle(row, sent)
            if (copy.id !== row.id) yield* sql`DELETE FROM ${sql(input.table)} WHERE id = ${row.id} AND status <> 'sent'`
            return copy
          })
          return yield* sql.withTransaction(settle).pipe(
            Effect.retry(settleRetries),
            Effect.catchTag("SqlError", (error) =>
              Effect.as(
                Effect.logWarning("inbox answer sent but not settled").pipe(
                  Effect.annotateLogs({ ...input.log, answer: row.id, reason: error.message })
                ),
                input.unsettled(row, sent)
              ))
          )
        })
      )
    })

  const replyToComment = Effect.fn("Inbox.replyToComment")(function*(workspaceId: string, commentId: string, text: string) {
    const [row] = yield* sql<CommentRow & { readonly networkCommentId: string | null }>`
      SELECT ${sql.literal(commentColumns)}, network_comment_id FROM inbox_comments
      WHERE id = ${commentId} AND workspace_id = ${workspaceId}`
    if (row === undefined) return yield* new InboxNotFound({ what: `Comment ${commentId}` })
    if (row.networkCommentId === null) {
      return yield* new InboxSendFailed({ message: `Comment ${commentId} is not on ${row.platform} (${row.status}): there is nothing to reply to yet` })
    }
    const { account, inbox, platform } = yield* options.sender(row.accountId)
    const now = new Date(yield* Clock.currentTimeMillis)
    const since = new Date(now.getTime() - sameRequestWithin)
    const justNow = new Date(now.getTime() - doubleSendWithin)
    const answered = yield* answer({
      table: "inbox_comments",
      find: sql<CommentRow>`
        SELECT ${sql.literal(commentColumns)} FROM inbox_comments
        WHERE account_id = ${row.accountId} AND reply_to = ${row.id} AND outgoing AND text = ${text}
          AND (status IN ('sending', 'unknown') AND created_at > ${since} OR status = 'sent' AND created_at > ${justNow})
        ORDER BY created_at, id LIMIT 1`,
      insert: sql<CommentRow>`
        INSERT INTO inbox_comments (id, workspace_id, account_id, platform, network_comment_id, network_post_id, post_id,
          reply_to, author, text, permalink, outgoing, status, created_at)
        VALUES (${yield* Ids.make("cmt")}, ${workspaceId}, ${row.accountId}, ${platform}, NULL, ${row.networkPostId},
          ${row.postId}, ${row.id}, ${JSON.stringify(ownPerson(account))}::jsonb, ${text}, NULL, true, 'sending', ${now})
        ON CONFLICT (reply_to, md5(text)) WHERE status = 'sending' DO NOTHING
        RETURNING ${sql.literal(commentColumns)}`,
      call: inbox.replyToComment({
        account,
        comment: {
          id: row.networkCommentId,
          postId: row.networkPostId,
          replyTo: null,
          author: row.author,
          text: row.text,
          permalink: row.permalink,
          createdAt: row.createdAt.toISOString()
        },
        text
      }),
      stored: (sent) =>
        sql<CommentRow>`
          SELECT ${sql.literal(commentColumns)} FROM inbox_comments
          WHERE account_id = ${row.accountId} AND network_comment_id = ${sent.id}`,
      settle: (pending, sent) =>
        Effect.map(
          sql<CommentRow>`
            UPDATE inbox_comments SET status = 'sent', failure = NULL, network_comment_id = ${sent.id}, permalink = ${sent.permalink}
            WHERE id = ${pending.id}
            RETURNING ${sql.literal(commentColumns)}`,
          (rows) => rows[0]!
        ),
      unsettled: (pending, sent) => ({ ...pending, status: "sent" as const, permalink: sent.permalink }),
      log: { network: platform, account: row.accountId }
    })
    return toComment(answered)
  })

  const sendMessage = Effect.fn("Inbox.sendMessage")(function*(workspaceId: string, conversationId: string, text: string) {
    const conversation = yield* options.conversationOf(workspaceId, conversationId)
    const { account, inbox, platform } = yield* options.sender(conversation.accountId)
    const now = new Date(yield* Clock.currentTimeMillis)
    const since = new Date(now.getTime() - sameRequestWithin)
    const justNow = new Date(now.getTime() - doubleSendWithin)
    const answered = yield* answer({
      table: "direct_messages",
      find: sql<MessageRow>`
        SELECT ${sql.literal(messageColumns)} FROM direct_messages
        WHERE conversation_id = ${conversationId} AND outgoing AND text = ${text}
          AND (status IN ('sending', 'unknown') AND created_at > ${since} OR status = 'sent' AND created_at > ${justNow})
        ORDER BY created_at, id LIMIT 1`,
      insert: sql<MessageRow>`
        INSERT INTO direct_messages (id, conversation_id, network_message_id, sender, text, attachments, outgoing, status, created_at)
        VALUES (${yield* Ids.make("dm")}, ${conversationId}, NULL, ${JSON.stringify(ownPerson(account))}::jsonb, ${text}, 0, true,
          'sending', ${now})
        ON CONFLICT (conversation_id, md5(text)) WHERE status = 'sending' DO NOTHING
        RETURNING ${sql.literal(messageColumns)}`,
      call: inbox.sendMessage({ account, conversationId: conversation.networkConversationId, text }),
      stored: (sent) =>
        sql<MessageRow>`
          SELECT ${sql.literal(messageColumns)} FROM direct_messages
          WHERE conversation_id = ${conversationId} AND network_message_id = ${sent.id}`,
      settle: (pending, sent) =>
        Effect.gen(function*() {
          const [settled] = yield* sql<MessageRow>`
            UPDATE direct_messages SET status = 'sent', failure = NULL, network_message_id = ${sent.id}
            WHERE id = ${pending.id}
            RETURNING ${sql.literal(messageColumns)}`
          yield* sql`UPDATE conversations SET last_message_at = greatest(last_message_at, ${now}) WHERE id = ${conversationId}`
          yield* Events.record(sql, workspaceId, "message.sent", {
            accountId: conversation.accountId,
            platform,
            conversationId,
            messageId: settled!.id,
            to: conversation.counterpart.username,
            text: excerpt(text)
          })
          return settled!
        }),
      unsettled: (pending) => ({ ...pending, status: "sent" as const }),
      log: { network: platform, account: conversation.accountId }
    })
    return toMessage(answered)
  })

  return { replyToComment, sendMessage }
}
