import { Context, Duration, Effect, Layer, Option, Schedule } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { Adapter } from "@herald/adapter-kit"
import { type Inbox as Domain, SafeText } from "@herald/domain"
import * as DieOnSql from "./internal/dieOnSql.ts"
import { Cipher } from "./Cipher.ts"
import { makeAnswers } from "./internal/inboxAnswers.ts"
import { InboxNotFound, InboxSendFailed } from "./internal/inboxErrors.ts"
import { makeReads } from "./internal/inboxReads.ts"
import { makeRound } from "./internal/inboxRound.ts"
import {
  commentColumns,
  type CommentRow,
  conversationColumns,
  type ConversationRow,
  messageColumns,
  type MessageRow,
  paged,
  toComment,
  toConversation,
  toMessage
} from "./internal/inboxRows.ts"
import { Networks } from "./Networks.ts"
import { PublicUrl } from "./PublicUrl.ts"

/**
 * The inbox: comments on the accounts' posts and direct messages, read from each network whose adapter has
 * `inbox`, answered through Herald. A polling round reads every account that is due (its own schedule,
 * `pollEvery`), stores what is new, and announces it: one `comment.received` or `message.received` per
 * item, or, when more than 10 of a kind arrive for a workspace in one round, one summary event instead.
 * Each account's items and cursor commit together with their events, so a crash loses nothing and repeats
 * nothing, and an account that fails (its network, or its items in the database) fails alone and is read
 * again later with backoff (internal/inboxRound.ts), each read and each failure counted by network in the
 * metrics `herald_inbox_rounds_total` and `herald_inbox_failures_total`. Answers are stored before they are
 * sent and settled after (internal/inboxAnswers.ts), so one is never sent twice.
 */

export { InboxNotFound, InboxSendFailed }

export interface Options {
  /** How often one account is read. */
  readonly pollEvery?: Duration.Duration | undefined
  /** More than this many items of a kind in one round for a workspace become one summary event. */
  readonly summaryAbove?: number | undefined
}

/** Items of one account, or of one network's accounts; both may be given. */
export interface Filter {
  readonly accountId?: string | undefined
  readonly platform?: string | undefined
}

/** A page: newest first, `limit` items, and where the next page starts. */
export interface Page {
  readonly limit: number
  readonly cursor?: { readonly at: Date; readonly id: string } | undefined
}

export class Inbox extends Context.Service<Inbox, {
  /** One polling round over the accounts that are due; answers how many new items it stored. */
  readonly pollDue: Effect.Effect<number>
  /** A network said these of its accounts have news: they are read in the next round. Answers how many. */
  wake(network: string, networkAccountIds: ReadonlyArray<string>): Effect.Effect<number>
  comments(workspaceId: string, page: Page, filter?: Filter): Effect.Effect<{
    readonly items: ReadonlyArray<Domain.Comment>
    readonly next: Option.Option<{ readonly at: Date; readonly id: string }>
  }>
  conversations(workspaceId: string, page: Page, filter?: Filter): Effect.Effect<{
    readonly items: ReadonlyArray<Domain.Conversation>
    readonly next: Option.Option<{ readonly at: Date; readonly id: string }>
  }>
  messages(workspaceId: string, conversationId: string, page: Page): Effect.Effect<{
    readonly items: ReadonlyArray<Domain.Message>
    readonly next: Option.Option<{ readonly at: Date; readonly id: string }>
  }, InboxNotFound>
  replyToComment(workspaceId: string, commentId: string, text: string): Effect.Effect<
    Domain.Comment,
    InboxNotFound | InboxSendFailed
  >
  sendMessage(workspaceId: string, conversationId: string, text: string): Effect.Effect<
    Domain.Message,
    InboxNotFound | InboxSendFailed
  >
  /** Marks a comment read for the whole workspace (once; again is no change). */
  markCommentRead(workspaceId: string, commentId: string): Effect.Effect<Domain.Comment, InboxNotFound>
  /** Marks every message received so far in a conversation read. */
  markConversationRead(workspaceId: string, conversationId: string): Effect.Effect<
    Domain.Conversation,
    InboxNotFound
  >
  /** The unread comments and conversations, in all and per account. */
  unread(workspaceId: string): Effect.Effect<Domain.Unread>
}>()("@herald/core/Inbox") {
  static readonly layer = (options: Options = {}) =>
    Layer.effect(
      Inbox,
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const networks = yield* Networks
        const cipher = yield* Cipher
        const baseUrl = yield* PublicUrl
        const pollEvery = Duration.toMillis(options.pollEvery ?? Duration.minutes(1))
        const summaryAbove = options.summaryAbove ?? 10
        const accountOf = (due: {
          readonly networkAccountId: string
          readonly username: string
          readonly accessToken: Uint8Array | null
          readonly server: string | null
        }) =>
          due.accessToken === null
            ? Effect.succeed(Option.none<Adapter.Account>())
            : Effect.map(Effect.option(cipher.open(due.accessToken)), Option.map((accessToken): Adapter.Account => ({
              networkAccountId: due.networkAccountId,
              username: due.username,
              accessToken,
              server: due.server
            })))

        const pollDue = makeRound({ sql, networks, baseUrl, pollEvery, summaryAbove, accountOf })

        const wake = Effect.fn("Inbox.wake")(function*(network: string, networkAccountIds: ReadonlyArray<string>) {
          if (networkAccountIds.length === 0) return 0
          // The ids come from the network: repaired like its text. An account that is failing keeps its backoff.
          const rows = yield* sql<{ readonly accountId: string }>`
            INSERT INTO inbox_cursors (account_id, next_poll_at)
            SELECT id, now() FROM accounts
            WHERE platform = ${network} AND status = 'connected'
              AND ${sql.in("network_account_id", [...new Set(networkAccountIds.map(SafeText.sanitize))])}
            ON CONFLICT (account_id) DO UPDATE SET next_poll_at = CASE WHEN inbox_cursors.failures = 0
              THEN least(inbox_cursors.next_poll_at, now()) ELSE inbox_cursors.next_poll_at END
            RETURNING account_id`
          return rows.length
        })

        const only = (filter: Filter) =>
          sql`${filter.accountId === undefined ? sql`` : sql`AND account_id = ${filter.accountId}`}
            ${filter.platform === undefined ? sql`` : sql`AND platform = ${filter.platform}`}`

        const comments = (workspaceId: string, page: Page, filter: Filter = {}) =>
          Effect.map(
            sql<CommentRow>`
              SELECT ${sql.literal(commentColumns)} FROM inbox_comments WHERE workspace_id = ${workspaceId} ${only(filter)}
              ${page.cursor === undefined ? sql`` : sql`AND (created_at, id) < (${page.cursor.at}, ${page.cursor.id})`}
              ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`,
            (rows) => {
              const result = paged(rows, page.limit, (row) => row.createdAt)
              return { items: result.items.map(toComment), next: result.next }
            }
          )

        const conversations = (workspaceId: string, page: Page, filter: Filter = {}) =>
          Effect.map(
            sql<ConversationRow>`
              SELECT ${sql.literal(conversationColumns)} FROM conversations
              WHERE workspace_id = ${workspaceId} ${only(filter)}
              ${page.cursor === undefined ? sql`` : sql`AND (last_message_at, id) < (${page.cursor.at}, ${page.cursor.id})`}
              ORDER BY last_message_at DESC, id DESC LIMIT ${page.limit + 1}`,
            (rows) => {
              const result = paged(rows, page.limit, (row) => row.lastMessageAt)
              return { items: result.items.map(toConversation), next: result.next }
            }
          )

        const conversationOf = Effect.fnUntraced(function*(workspaceId: string, conversationId: string) {
          const [row] = yield* sql<ConversationRow & { readonly workspaceId: string; readonly networkConversationId: string }>`
            SELECT ${sql.literal(conversationColumns)}, workspace_id, network_conversation_id
            FROM conversations WHERE id = ${conversationId} AND workspace_id = ${workspaceId}`
          if (row === undefined) return yield* new InboxNotFound({ what: `Conversation ${conversationId}` })
          return row
        })

        const messages = Effect.fn("Inbox.messages")(function*(workspaceId: string, conversationId: string, page: Page) {
          yield* conversationOf(workspaceId, conversationId)
          const rows = yield* sql<MessageRow>`
            SELECT ${sql.literal(messageColumns)} FROM direct_messages
            WHERE conversation_id = ${conversationId}
            ${page.cursor === undefined ? sql`` : sql`AND (created_at, id) < (${page.cursor.at}, ${page.cursor.id})`}
            ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`
          const result = paged(rows, page.limit, (row) => row.createdAt)
          return { items: result.items.map(toMessage), next: result.next }
        })

        /** The account behind an item, ready for its adapter's inbox. */
        const sender = Effect.fnUntraced(function*(accountId: string) {
          const [row] = yield* sql<{ readonly platform: string; readonly username: string; readonly networkAccountId: string; readonly accessToken: Uint8Array | null; readonly status: string; readonly server: string | null }>`
            SELECT platform, username, network_account_id, access_token, status, server FROM accounts WHERE id = ${accountId}`
          if (row === undefined) return yield* new InboxNotFound({ what: `Account ${accountId}` })
          const adapter = yield* Effect.orDie(networks.get(row.platform))
          const account = yield* accountOf(row)
          if (adapter.inbox === undefined || Option.isNone(account) || row.status !== "connected") {
            return yield* new InboxSendFailed({ message: `@${row.username} on ${row.platform} cannot send from Herald now (${row.status}); reconnect it` })
          }
          return { inbox: adapter.inbox, account: account.value, platform: row.platform }
        })

        const { replyToComment, sendMessage } = makeAnswers({ sql, sender, conversationOf })

        const { markCommentRead, markConversationRead, unread } = makeReads(sql)

        return Inbox.of(DieOnSql.service({
          pollDue,
          wake,
          comments,
          conversations,
          messages,
          replyToComment,
          sendMessage,
          markCommentRead,
          markConversationRead,
          unread
        }))
      })
    )

  /** The polling rounds, in processes that do background work: every `every`, whoever is due. */
  static readonly rounds = (every: Duration.Duration = Duration.seconds(5)) =>
    Layer.effectDiscard(Effect.gen(function*() {
      const inbox = yield* Inbox
      yield* inbox.pollDue.pipe(
        Effect.catchCause((cause) => Effect.as(Effect.logWarning("Inbox round failed", cause), 0)),
        Effect.repeat(Schedule.spaced(every)),
        Effect.forkScoped
      )
    }))
}
