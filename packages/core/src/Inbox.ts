import { Clock, Context, Duration, Effect, Layer, Option, Schedule, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import type { Adapter } from "@herald/adapter-kit"
import { Inbox as Domain, type Post } from "@herald/domain"
import { Cipher } from "./Cipher.ts"
import * as Events from "./Events.ts"
import * as Ids from "./Ids.ts"
import { Networks } from "./Networks.ts"
import { hydrate, postColumns, type PostRow } from "./internal/postRows.ts"
import { PublicUrl } from "./PublicUrl.ts"

/**
 * The inbox: comments on the accounts' posts and direct messages, read from each network whose adapter has
 * `inbox`, answered through Herald. A polling round reads every account that is due (its own schedule,
 * `pollEvery`), stores what is new, and announces it: one `comment.received` or `message.received` per
 * item, or, when more than 10 of a kind arrive for a workspace in one round, one summary event instead.
 * Items, cursors and events of a round commit together, so a crash loses nothing and repeats nothing (the
 * cursor moves only with what it covered).
 */

export class InboxNotFound extends Schema.TaggedError<InboxNotFound>()("InboxNotFound", { what: Schema.String }) {
  override get message() {
    return `${this.what} does not exist`
  }
}

/** The network refused or failed the reply; the message says why in its words. */
export class InboxSendFailed extends Schema.TaggedError<InboxSendFailed>()("InboxSendFailed", { message: Schema.String }) {}

export interface Options {
  /** How often one account is read. */
  readonly pollEvery?: Duration.Duration | undefined
  /** More than this many items of a kind in one round for a workspace become one summary event. */
  readonly summaryAbove?: number | undefined
}

/** The text events carry: the first 280 characters (code points). */
const excerpt = (text: string) => [...text].slice(0, 280).join("")

interface CommentRow {
  readonly id: string
  readonly accountId: string
  readonly platform: string
  readonly postId: string | null
  readonly networkPostId: string
  readonly author: Domain.Person
  readonly text: string
  readonly replyTo: string | null
  readonly permalink: string | null
  readonly outgoing: boolean
  readonly createdAt: Date
}

const commentColumns = "id, account_id, platform, post_id, network_post_id, author, text, reply_to, permalink, outgoing, created_at"

const toComment = (row: CommentRow) =>
  new Domain.Comment({
    id: row.id,
    accountId: row.accountId,
    platform: row.platform,
    postId: row.postId,
    networkPostId: row.networkPostId,
    author: new Domain.Person(row.author),
    text: row.text,
    reply: row.replyTo,
    permalink: row.permalink,
    outgoing: row.outgoing,
    createdAt: row.createdAt.toISOString()
  })

interface ConversationRow {
  readonly id: string
  readonly accountId: string
  readonly platform: string
  readonly counterpart: Domain.Person
  readonly lastMessageAt: Date
  readonly createdAt: Date
}

const toConversation = (row: ConversationRow) =>
  new Domain.Conversation({
    id: row.id,
    accountId: row.accountId,
    platform: row.platform,
    counterpart: new Domain.Person(row.counterpart),
    lastMessageAt: row.lastMessageAt.toISOString(),
    createdAt: row.createdAt.toISOString()
  })

interface MessageRow {
  readonly id: string
  readonly conversationId: string
  readonly sender: Domain.Person
  readonly text: string
  readonly attachments: number
  readonly outgoing: boolean
  readonly createdAt: Date
}

const toMessage = (row: MessageRow) =>
  new Domain.Message({
    id: row.id,
    conversationId: row.conversationId,
    from: new Domain.Person(row.sender),
    text: row.text,
    attachments: row.attachments,
    outgoing: row.outgoing,
    createdAt: row.createdAt.toISOString()
  })

/** A page: newest first, `limit` items, and where the next page starts. */
export interface Page {
  readonly limit: number
  readonly cursor?: { readonly at: Date; readonly id: string } | undefined
}

const paged = <A extends { readonly id: string }>(rows: ReadonlyArray<A>, limit: number, at: (row: A) => Date) => {
  const shown = rows.slice(0, limit)
  const last = shown.at(-1)
  return {
    items: shown,
    next: rows.length > limit && last !== undefined ? Option.some({ at: at(last), id: last.id }) : Option.none()
  }
}

interface Due {
  readonly accountId: string
  readonly workspaceId: string
  readonly platform: string
  readonly username: string
  readonly networkAccountId: string
  readonly accessToken: Uint8Array | null
  readonly cursor: string | null
}

export class Inbox extends Context.Service<Inbox, {
  /** One polling round over the accounts that are due; answers how many new items it stored. */
  readonly pollDue: Effect.Effect<number, SqlError.SqlError>
  /** A network said these of its accounts have news: they are read in the next round. Answers how many. */
  wake(network: string, networkAccountIds: ReadonlyArray<string>): Effect.Effect<number, SqlError.SqlError>
  comments(workspaceId: string, page: Page): Effect.Effect<{
    readonly items: ReadonlyArray<Domain.Comment>
    readonly next: Option.Option<{ readonly at: Date; readonly id: string }>
  }, SqlError.SqlError>
  conversations(workspaceId: string, page: Page): Effect.Effect<{
    readonly items: ReadonlyArray<Domain.Conversation>
    readonly next: Option.Option<{ readonly at: Date; readonly id: string }>
  }, SqlError.SqlError>
  messages(workspaceId: string, conversationId: string, page: Page): Effect.Effect<{
    readonly items: ReadonlyArray<Domain.Message>
    readonly next: Option.Option<{ readonly at: Date; readonly id: string }>
  }, InboxNotFound | SqlError.SqlError>
  replyToComment(workspaceId: string, commentId: string, text: string): Effect.Effect<
    Domain.Comment,
    InboxNotFound | InboxSendFailed | SqlError.SqlError
  >
  sendMessage(workspaceId: string, conversationId: string, text: string): Effect.Effect<
    Domain.Message,
    InboxNotFound | InboxSendFailed | SqlError.SqlError
  >
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
        const withInbox = networks.all.filter((adapter) => adapter.inbox !== undefined).map((adapter) => adapter.network)
        // A network's own least interval (its quota), when it has one.
        const intervalOf = (network: string) => networks.all.find((adapter) => adapter.network === network)?.inbox?.pollEveryMs ?? 0

        const accountOf = (due: { readonly networkAccountId: string; readonly username: string; readonly accessToken: Uint8Array | null }) =>
          due.accessToken === null
            ? Effect.succeed(Option.none<Adapter.Account>())
            : Effect.map(Effect.option(cipher.open(due.accessToken)), Option.map((accessToken): Adapter.Account => ({
              networkAccountId: due.networkAccountId,
              username: due.username,
              accessToken
            })))

        /** The Herald post each network post id of an account is, where Herald made it. */
        const heraldPosts = Effect.fnUntraced(function*(accountId: string, networkPostIds: ReadonlyArray<string>) {
          if (networkPostIds.length === 0) return new Map<string, string>()
          const rows = yield* sql<{ readonly postId: string; readonly networkPostId: string }>`
            SELECT post_id, network_post_id FROM post_targets
            WHERE account_id = ${accountId} AND ${sql.in("network_post_id", [...new Set(networkPostIds)])}`
          return new Map(rows.map((row) => [row.networkPostId, row.postId]))
        })

        const pollDue = Effect.fn("Inbox.pollDue")(function*() {
          if (withInbox.length === 0) return 0
          const now = new Date(yield* Clock.currentTimeMillis)
          // Every connected account of a network with an inbox has a cursor row, due at once when new.
          yield* sql`
            INSERT INTO inbox_cursors (account_id)
            SELECT id FROM accounts WHERE status = 'connected' AND ${sql.in("platform", withInbox)}
            ON CONFLICT (account_id) DO NOTHING`
          // Claimed under a lease (a round that dies leaves them due again soon).
          const due = yield* sql<Due>`
            UPDATE inbox_cursors c SET next_poll_at = ${new Date(now.getTime() + pollEvery)}
            FROM accounts a
            WHERE a.id = c.account_id AND c.account_id IN (
              SELECT c2.account_id FROM inbox_cursors c2 JOIN accounts a2 ON a2.id = c2.account_id
              WHERE c2.next_poll_at <= ${now} AND a2.status = 'connected' AND ${sql.in("a2.platform", withInbox)}
              ORDER BY c2.next_poll_at LIMIT 200 FOR UPDATE OF c2 SKIP LOCKED
            )
            RETURNING a.id AS account_id, a.workspace_id, a.platform, a.username, a.network_account_id, a.access_token, c.cursor`
          if (due.length === 0) return 0
          // The networks first, outside any transaction; an account whose read fails keeps its cursor.
          const read = yield* Effect.forEach(due, (entry) =>
            Effect.gen(function*() {
              const adapter = yield* Effect.orDie(networks.get(entry.platform))
              const account = yield* accountOf(entry)
              if (Option.isNone(account) || adapter.inbox === undefined) return Option.none()
              const page = yield* Effect.result(adapter.inbox.fetch({ account: account.value, cursor: entry.cursor }))
              if (page._tag === "Failure") {
                yield* Effect.logWarning("inbox read failed").pipe(
                  Effect.annotateLogs({ network: entry.platform, account: entry.accountId, reason: page.failure.message })
                )
                return Option.none()
              }
              return Option.some({ entry, page: page.success })
            }), { concurrency: 8 })
          return yield* sql.withTransaction(Effect.gen(function*() {
            const fresh = new Map<string, { comments: Array<Record<string, unknown>>; messages: Array<Record<string, unknown>>; sent: Array<Record<string, unknown>>; platforms: { comments: Set<string>; messages: Set<string> } }>()
            const forWorkspace = (workspaceId: string) => {
              let entry = fresh.get(workspaceId)
              if (entry === undefined) {
                entry = { comments: [], messages: [], sent: [], platforms: { comments: new Set(), messages: new Set() } }
                fresh.set(workspaceId, entry)
              }
              return entry
            }
            const postsRead = new Map<string, Option.Option<Post.Post>>()
            let stored = 0
            for (const item of read) {
              if (Option.isNone(item)) continue
              const { entry, page } = item.value
              const posts = yield* heraldPosts(entry.accountId, page.comments.map((comment) => comment.postId))
              for (const comment of page.comments) {
                const id = yield* Ids.make("cmt")
                const outgoing = comment.author.id === entry.networkAccountId
                const [parent] = comment.replyTo === null ? [] : yield* sql<{ readonly id: string }>`
                  SELECT id FROM inbox_comments WHERE account_id = ${entry.accountId} AND network_comment_id = ${comment.replyTo}`
                const [inserted] = yield* sql<{ readonly id: string }>`
                  INSERT INTO inbox_comments (id, workspace_id, account_id, platform, network_comment_id, network_post_id, post_id,
                    reply_to, author, text, permalink, outgoing, created_at)
                  VALUES (${id}, ${entry.workspaceId}, ${entry.accountId}, ${entry.platform}, ${comment.id}, ${comment.postId},
                    ${posts.get(comment.postId) ?? null}, ${parent?.id ?? null}, ${JSON.stringify(comment.author)}::jsonb,
                    ${comment.text}, ${comment.permalink}, ${outgoing}, ${new Date(comment.createdAt)})
                  ON CONFLICT (account_id, network_comment_id) DO NOTHING
                  RETURNING id`
                if (inserted === undefined || outgoing) continue
                stored++
                const postId = posts.get(comment.postId)
                const data: Record<string, unknown> = {
                  accountId: entry.accountId,
                  platform: entry.platform,
                  inboxItemId: id,
                  author: comment.author,
                  text: excerpt(comment.text),
                  reply: parent?.id ?? null,
                  permalink: comment.permalink
                }
                if (postId !== undefined) {
                  // Read once a round, however many of its comments arrive in it.
                  let post = postsRead.get(postId)
                  if (post === undefined) {
                    const rows = yield* sql<PostRow>`SELECT ${sql.literal(postColumns)} FROM posts WHERE id = ${postId}`
                    post = Option.fromUndefinedOr(hydrate(rows, baseUrl)[0])
                    postsRead.set(postId, post)
                  }
                  if (Option.isSome(post)) data["post"] = post.value
                }
                const bucket = forWorkspace(entry.workspaceId)
                bucket.comments.push(data)
                bucket.platforms.comments.add(entry.platform)
              }
              for (const message of page.messages) {
                const counterpart = message.outgoing ? undefined : message.from
                const [conversation] = yield* sql<{ readonly id: string; readonly counterpart: Domain.Person }>`
                  INSERT INTO conversations (id, workspace_id, account_id, platform, network_conversation_id, counterpart, last_message_at)
                  VALUES (${yield* Ids.make("cnv")}, ${entry.workspaceId}, ${entry.accountId}, ${entry.platform}, ${message.conversationId},
                    ${JSON.stringify(counterpart ?? { id: "", username: "", name: null })}::jsonb, ${new Date(message.createdAt)})
                  ON CONFLICT (account_id, network_conversation_id) DO UPDATE SET
                    last_message_at = greatest(conversations.last_message_at, excluded.last_message_at),
                    counterpart = CASE WHEN conversations.counterpart->>'id' = '' THEN excluded.counterpart ELSE conversations.counterpart END
                  RETURNING id, counterpart`
                const messageId = yield* Ids.make("dm")
                const [inserted] = yield* sql<{ readonly id: string }>`
                  INSERT INTO direct_messages (id, conversation_id, network_message_id, sender, text, attachments, outgoing, created_at)
                  VALUES (${messageId}, ${conversation!.id}, ${message.id}, ${JSON.stringify(message.from)}::jsonb, ${message.text},
                    ${message.attachments}, ${message.outgoing}, ${new Date(message.createdAt)})
                  ON CONFLICT (conversation_id, network_message_id) DO NOTHING
                  RETURNING id`
                if (inserted === undefined) continue
                stored++
                const bucket = forWorkspace(entry.workspaceId)
                if (message.outgoing) {
                  // Answered in the network's own app: a reply sent by a person.
                  bucket.sent.push({
                    accountId: entry.accountId,
                    platform: entry.platform,
                    conversationId: conversation!.id,
                    messageId,
                    to: conversation!.counterpart.username,
                    text: excerpt(message.text)
                  })
                  continue
                }
                bucket.messages.push({
                  accountId: entry.accountId,
                  platform: entry.platform,
                  conversationId: conversation!.id,
                  messageId,
                  from: message.from.username,
                  text: excerpt(message.text),
                  attachments: message.attachments
                })
                bucket.platforms.messages.add(entry.platform)
              }
              yield* sql`
                UPDATE inbox_cursors SET cursor = ${page.cursor}, polled_at = ${now},
                  next_poll_at = ${new Date(now.getTime() + Math.max(pollEvery, intervalOf(entry.platform)))}
                WHERE account_id = ${entry.accountId}`
            }
            for (const [workspaceId, bucket] of fresh) {
              const announce = Effect.fnUntraced(function*(event: string, items: ReadonlyArray<Record<string, unknown>>, platforms: Set<string>) {
                if (items.length === 0) return
                if (items.length > summaryAbove) {
                  yield* Events.record(sql, workspaceId, event, { count: items.length, platforms: [...platforms].sort(), summary: true })
                  return
                }
                for (const data of items) yield* Events.record(sql, workspaceId, event, data)
              })
              yield* announce("comment.received", bucket.comments, bucket.platforms.comments)
              yield* announce("message.received", bucket.messages, bucket.platforms.messages)
              for (const data of bucket.sent) yield* Events.record(sql, workspaceId, "message.sent", data)
            }
            return stored
          }))
        })

        const wake = Effect.fn("Inbox.wake")(function*(network: string, networkAccountIds: ReadonlyArray<string>) {
          if (networkAccountIds.length === 0) return 0
          const rows = yield* sql<{ readonly accountId: string }>`
            INSERT INTO inbox_cursors (account_id, next_poll_at)
            SELECT id, now() FROM accounts
            WHERE platform = ${network} AND status = 'connected' AND ${sql.in("network_account_id", [...new Set(networkAccountIds)])}
            ON CONFLICT (account_id) DO UPDATE SET next_poll_at = least(inbox_cursors.next_poll_at, now())
            RETURNING account_id`
          return rows.length
        })

        const comments = (workspaceId: string, page: Page) =>
          Effect.map(
            sql<CommentRow>`
              SELECT ${sql.literal(commentColumns)} FROM inbox_comments WHERE workspace_id = ${workspaceId}
              ${page.cursor === undefined ? sql`` : sql`AND (created_at, id) < (${page.cursor.at}, ${page.cursor.id})`}
              ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`,
            (rows) => {
              const result = paged(rows, page.limit, (row) => row.createdAt)
              return { items: result.items.map(toComment), next: result.next }
            }
          )

        const conversations = (workspaceId: string, page: Page) =>
          Effect.map(
            sql<ConversationRow>`
              SELECT id, account_id, platform, counterpart, last_message_at, created_at FROM conversations
              WHERE workspace_id = ${workspaceId}
              ${page.cursor === undefined ? sql`` : sql`AND (last_message_at, id) < (${page.cursor.at}, ${page.cursor.id})`}
              ORDER BY last_message_at DESC, id DESC LIMIT ${page.limit + 1}`,
            (rows) => {
              const result = paged(rows, page.limit, (row) => row.lastMessageAt)
              return { items: result.items.map(toConversation), next: result.next }
            }
          )

        const conversationOf = Effect.fnUntraced(function*(workspaceId: string, conversationId: string) {
          const [row] = yield* sql<ConversationRow & { readonly workspaceId: string; readonly networkConversationId: string }>`
            SELECT id, workspace_id, account_id, platform, counterpart, last_message_at, created_at, network_conversation_id
            FROM conversations WHERE id = ${conversationId} AND workspace_id = ${workspaceId}`
          if (row === undefined) return yield* new InboxNotFound({ what: `Conversation ${conversationId}` })
          return row
        })

        const messages = Effect.fn("Inbox.messages")(function*(workspaceId: string, conversationId: string, page: Page) {
          yield* conversationOf(workspaceId, conversationId)
          const rows = yield* sql<MessageRow>`
            SELECT id, conversation_id, sender, text, attachments, outgoing, created_at FROM direct_messages
            WHERE conversation_id = ${conversationId}
            ${page.cursor === undefined ? sql`` : sql`AND (created_at, id) < (${page.cursor.at}, ${page.cursor.id})`}
            ORDER BY created_at DESC, id DESC LIMIT ${page.limit + 1}`
          const result = paged(rows, page.limit, (row) => row.createdAt)
          return { items: result.items.map(toMessage), next: result.next }
        })

        /** The account behind an item, ready for its adapter's inbox. */
        const sender = Effect.fnUntraced(function*(accountId: string) {
          const [row] = yield* sql<{ readonly platform: string; readonly username: string; readonly networkAccountId: string; readonly accessToken: Uint8Array | null; readonly status: string }>`
            SELECT platform, username, network_account_id, access_token, status FROM accounts WHERE id = ${accountId}`
          if (row === undefined) return yield* new InboxNotFound({ what: `Account ${accountId}` })
          const adapter = yield* Effect.orDie(networks.get(row.platform))
          const account = yield* accountOf(row)
          if (adapter.inbox === undefined || Option.isNone(account) || row.status !== "connected") {
            return yield* new InboxSendFailed({ message: `@${row.username} on ${row.platform} cannot send from Herald now (${row.status}); reconnect it` })
          }
          return { inbox: adapter.inbox, account: account.value, platform: row.platform }
        })

        const replyToComment = Effect.fn("Inbox.replyToComment")(function*(workspaceId: string, commentId: string, text: string) {
          const [row] = yield* sql<CommentRow & { readonly networkCommentId: string }>`
            SELECT ${sql.literal(commentColumns)}, network_comment_id FROM inbox_comments WHERE id = ${commentId} AND workspace_id = ${workspaceId}`
          if (row === undefined) return yield* new InboxNotFound({ what: `Comment ${commentId}` })
          const { account, inbox, platform } = yield* sender(row.accountId)
          const sent = yield* inbox.replyToComment({
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
          }).pipe(Effect.mapError((error) => new InboxSendFailed({ message: `${platform}: ${error.message}` })))
          const now = new Date(yield* Clock.currentTimeMillis)
          const [stored] = yield* sql<CommentRow>`
            INSERT INTO inbox_comments (id, workspace_id, account_id, platform, network_comment_id, network_post_id, post_id,
              reply_to, author, text, permalink, outgoing, created_at)
            VALUES (${yield* Ids.make("cmt")}, ${workspaceId}, ${row.accountId}, ${platform}, ${sent.id}, ${row.networkPostId},
              ${row.postId}, ${row.id}, ${JSON.stringify({ id: account.networkAccountId, username: account.username, name: null })}::jsonb,
              ${text}, ${sent.permalink}, true, ${now})
            ON CONFLICT (account_id, network_comment_id) DO UPDATE SET reply_to = excluded.reply_to
            RETURNING ${sql.literal(commentColumns)}`
          return toComment(stored!)
        })

        const sendMessage = Effect.fn("Inbox.sendMessage")(function*(workspaceId: string, conversationId: string, text: string) {
          const conversation = yield* conversationOf(workspaceId, conversationId)
          const { account, inbox, platform } = yield* sender(conversation.accountId)
          const sent = yield* inbox.sendMessage({ account, conversationId: conversation.networkConversationId, text }).pipe(
            Effect.mapError((error) => new InboxSendFailed({ message: `${platform}: ${error.message}` }))
          )
          const now = new Date(yield* Clock.currentTimeMillis)
          return yield* sql.withTransaction(Effect.gen(function*() {
            const messageId = yield* Ids.make("dm")
            const [stored] = yield* sql<MessageRow>`
              INSERT INTO direct_messages (id, conversation_id, network_message_id, sender, text, attachments, outgoing, created_at)
              VALUES (${messageId}, ${conversationId}, ${sent.id},
                ${JSON.stringify({ id: account.networkAccountId, username: account.username, name: null })}::jsonb, ${text}, 0, true, ${now})
              ON CONFLICT (conversation_id, network_message_id) DO UPDATE SET text = excluded.text
              RETURNING id, conversation_id, sender, text, attachments, outgoing, created_at`
            yield* sql`UPDATE conversations SET last_message_at = greatest(last_message_at, ${now}) WHERE id = ${conversationId}`
            yield* Events.record(sql, workspaceId, "message.sent", {
              accountId: conversation.accountId,
              platform,
              conversationId,
              messageId: stored!.id,
              to: conversation.counterpart.username,
              text: excerpt(text)
            })
            return toMessage(stored!)
          }))
        })

        return Inbox.of({ pollDue: pollDue(), wake, comments, conversations, messages, replyToComment, sendMessage })
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
