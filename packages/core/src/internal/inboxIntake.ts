import { Cause, Effect, Option } from "effect"
import type { SqlClient } from "effect/sql"
import type { Adapter } from "@herald/adapter-kit"
import { Inbox as Domain, type Post, SafeText } from "@herald/domain"
import * as Events from "../Events.ts"
import * as Ids from "../Ids.ts"
import { hydrate, postColumns, type PostRow } from "./postRows.ts"
import { excerpt } from "./inboxRows.ts"

// Storing one account's read: its items, the answers Herald sent that the read shows went out, its cursor.
// A round runs this per account inside a savepoint, so an account whose items cannot be stored fails alone.

/** An account a round claimed. */
export interface Due {
  readonly accountId: string
  readonly workspaceId: string
  readonly platform: string
  readonly username: string
  readonly networkAccountId: string
  readonly accessToken: Uint8Array | null
  /** The account's server, on a network of many servers; null on one host. */
  readonly server: string | null
  readonly cursor: string | null
  /** Its failed rounds in a row so far. */
  readonly failures: number
}

/** What one account's read brings to its workspace's events. */
export interface Arrived {
  stored: number
  readonly comments: Array<Record<string, unknown>>
  readonly messages: Array<Record<string, unknown>>
  readonly sent: Array<Record<string, unknown>>
  readonly platforms: { readonly comments: Set<string>; readonly messages: Set<string> }
}

export const nothingArrived = (): Arrived => ({
  stored: 0,
  comments: [],
  messages: [],
  sent: [],
  platforms: { comments: new Set(), messages: new Set() }
})

export const addArrived = (into: Arrived, from: Arrived) => {
  into.stored += from.stored
  into.comments.push(...from.comments)
  into.messages.push(...from.messages)
  into.sent.push(...from.sent)
  for (const platform of from.platforms.comments) into.platforms.comments.add(platform)
  for (const platform of from.platforms.messages) into.platforms.messages.add(platform)
}

/**
 * Every string of a network's answer with NUL and unpaired surrogates replaced by U+FFFD: PostgreSQL
 * refuses them, and one stranger's message must not stop an account's inbox.
 */
export const sanitized = <A>(value: A): A => {
  if (typeof value === "string") return SafeText.sanitize(value) as A
  if (Array.isArray(value)) return value.map(sanitized) as A
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, sanitized(entry)])) as A
  }
  return value
}

/** An answer still `sending` this long after it was stored is past its own request: its outcome is unknown. */
const settleWithin = 5 * 60_000

const unknownOutcome = (platform: string) =>
  `Herald did not hear whether ${platform} took it, and its reads have not shown it: check on ${platform} before sending it again`

/** A failed round's reason in one line: the error's message and the messages of its causes. */
export const reasonOf = (cause: Cause.Cause<unknown>): string => {
  const parts: Array<string> = []
  let error: unknown = Cause.squash(cause)
  for (let depth = 0; depth < 4 && error !== undefined && error !== null; depth++) {
    const message = error instanceof Error || (typeof error === "object" && "message" in error)
      ? String((error as { readonly message: unknown }).message)
      : String(error)
    if (message !== "" && !parts.includes(message)) parts.push(message)
    error = typeof error === "object" && "cause" in error ? (error as { readonly cause: unknown }).cause : undefined
  }
  return parts.join(": ") || "unknown error"
}

/** `show`: the full post as webhooks carry it (`PostShape.show`). */
export const makeIntake = (sql: SqlClient.SqlClient, baseUrl: string, show: (post: Post.Post) => Record<string, unknown>) => {
  /** The Herald post each network post id of an account is, where Herald made it. */
  const heraldPosts = Effect.fnUntraced(function*(accountId: string, networkPostIds: ReadonlyArray<string>) {
    if (networkPostIds.length === 0) return new Map<string, string>()
    const rows = yield* sql<{ readonly postId: string; readonly networkPostId: string }>`
      SELECT post_id, network_post_id FROM post_targets
      WHERE account_id = ${accountId} AND ${sql.in("network_post_id", [...new Set(networkPostIds)])}`
    return new Map(rows.map((row) => [row.networkPostId, row.postId]))
  })

  /**
   * Stores a read (already sanitized) and moves the account's cursor; `postsRead` keeps the posts read in
   * this round, so a post with many new comments is read once.
   */
  const store = Effect.fnUntraced(function*(
    entry: Due,
    page: Adapter.InboxPage,
    now: Date,
    nextPollAt: Date,
    postsRead: Map<string, Option.Option<Post.Post>>
  ) {
    const arrived = nothingArrived()
    // A time the network wrote wrong is the time Herald read it, rather than a refused account.
    const at = (iso: string) => {
      const date = new Date(iso)
      return Number.isNaN(date.getTime()) ? now : date
    }
    const posts = yield* heraldPosts(entry.accountId, page.comments.map((comment) => comment.postId))
    for (const comment of page.comments) {
      const outgoing = comment.author.id === entry.networkAccountId
      const [parent] = comment.replyTo === null ? [] : yield* sql<{ readonly id: string }>`
        SELECT id FROM inbox_comments WHERE account_id = ${entry.accountId} AND network_comment_id = ${comment.replyTo}`
      if (outgoing) {
        // A reply Herald sent and has not settled: this read is the network's word that it went out.
        const settled = yield* sql`
          UPDATE inbox_comments SET status = 'sent', failure = NULL, network_comment_id = ${comment.id}, permalink = ${comment.permalink}
          WHERE id = (
            SELECT id FROM inbox_comments WHERE account_id = ${entry.accountId} AND status IN ('sending', 'unknown')
              AND network_comment_id IS NULL AND text = ${comment.text} AND reply_to IS NOT DISTINCT FROM ${parent?.id ?? null}
            ORDER BY created_at, id LIMIT 1
          ) AND NOT EXISTS (
            SELECT 1 FROM inbox_comments WHERE account_id = ${entry.accountId} AND network_comment_id = ${comment.id}
          )
          RETURNING id`
        if (settled.length > 0) continue
      }
      const id = yield* Ids.make("cmt")
      const [inserted] = yield* sql<{ readonly id: string }>`
        INSERT INTO inbox_comments (id, workspace_id, account_id, platform, network_comment_id, network_post_id, post_id,
          reply_to, author, text, permalink, outgoing, status, created_at)
        VALUES (${id}, ${entry.workspaceId}, ${entry.accountId}, ${entry.platform}, ${comment.id}, ${comment.postId},
          ${posts.get(comment.postId) ?? null}, ${parent?.id ?? null}, ${JSON.stringify(comment.author)}::jsonb,
          ${comment.text}, ${comment.permalink}, ${outgoing}, ${outgoing ? "sent" : "received"}, ${at(comment.createdAt)})
        ON CONFLICT (account_id, network_comment_id) DO NOTHING
        RETURNING id`
      if (inserted === undefined || outgoing) continue
      arrived.stored++
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
        if (Option.isSome(post)) data["post"] = show(post.value)
      }
      arrived.comments.push(data)
      arrived.platforms.comments.add(entry.platform)
    }
    for (const message of page.messages) {
      const counterpart = message.outgoing ? undefined : message.from
      const [conversation] = yield* sql<{ readonly id: string; readonly counterpart: Domain.Person }>`
        INSERT INTO conversations (id, workspace_id, account_id, platform, network_conversation_id, counterpart, last_message_at)
        VALUES (${yield* Ids.make("cnv")}, ${entry.workspaceId}, ${entry.accountId}, ${entry.platform}, ${message.conversationId},
          ${JSON.stringify(counterpart ?? { id: "", username: "", name: null })}::jsonb, ${at(message.createdAt)})
        ON CONFLICT (account_id, network_conversation_id) DO UPDATE SET
          last_message_at = greatest(conversations.last_message_at, excluded.last_message_at),
          counterpart = CASE WHEN conversations.counterpart->>'id' = '' THEN excluded.counterpart ELSE conversations.counterpart END
        RETURNING id, counterpart`
      const sent = (messageId: string) => ({
        accountId: entry.accountId,
        platform: entry.platform,
        conversationId: conversation!.id,
        messageId,
        to: conversation!.counterpart.username,
        text: excerpt(message.text)
      })
      if (message.outgoing) {
        // A message Herald sent and has not settled: announced now, as its request would have.
        const [settled] = yield* sql<{ readonly id: string }>`
          UPDATE direct_messages SET status = 'sent', failure = NULL, network_message_id = ${message.id}
          WHERE id = (
            SELECT id FROM direct_messages WHERE conversation_id = ${conversation!.id} AND status IN ('sending', 'unknown')
              AND network_message_id IS NULL AND text = ${message.text}
            ORDER BY created_at, id LIMIT 1
          ) AND NOT EXISTS (
            SELECT 1 FROM direct_messages WHERE conversation_id = ${conversation!.id} AND network_message_id = ${message.id}
          )
          RETURNING id`
        if (settled !== undefined) {
          arrived.stored++
          arrived.sent.push(sent(settled.id))
          continue
        }
      }
      const messageId = yield* Ids.make("dm")
      const [inserted] = yield* sql<{ readonly id: string }>`
        INSERT INTO direct_messages (id, conversation_id, network_message_id, sender, text, attachments, outgoing, status, created_at)
        VALUES (${messageId}, ${conversation!.id}, ${message.id}, ${JSON.stringify(message.from)}::jsonb, ${message.text},
          ${message.attachments}, ${message.outgoing}, ${message.outgoing ? "sent" : "received"}, ${at(message.createdAt)})
        ON CONFLICT (conversation_id, network_message_id) DO NOTHING
        RETURNING id`
      if (inserted === undefined) continue
      arrived.stored++
      if (message.outgoing) {
        // Answered in the network's own app: a reply sent by a person.
        arrived.sent.push(sent(messageId))
        continue
      }
      arrived.messages.push({
        accountId: entry.accountId,
        platform: entry.platform,
        conversationId: conversation!.id,
        messageId,
        from: message.from.username,
        text: excerpt(message.text),
        attachments: message.attachments
      })
      arrived.platforms.messages.add(entry.platform)
    }
    // Answers whose request never settled them and that no read has shown: Herald cannot tell any more.
    const stale = new Date(now.getTime() - settleWithin)
    yield* sql`
      UPDATE inbox_comments SET status = 'unknown', failure = ${unknownOutcome(entry.platform)}
      WHERE account_id = ${entry.accountId} AND status = 'sending' AND created_at < ${stale}`
    yield* sql`
      UPDATE direct_messages SET status = 'unknown', failure = ${unknownOutcome(entry.platform)}
      WHERE status = 'sending' AND created_at < ${stale}
        AND conversation_id IN (SELECT id FROM conversations WHERE account_id = ${entry.accountId})`
    yield* sql`
      UPDATE inbox_cursors SET cursor = ${page.cursor}, polled_at = ${now}, next_poll_at = ${nextPollAt},
        failures = 0, last_error = NULL
      WHERE account_id = ${entry.accountId}`
    return arrived
  })

  /** A workspace's events for what arrived: one per item, or one summary past `summaryAbove` of a kind. */
  const announce = Effect.fnUntraced(function*(workspaceId: string, arrived: Arrived, summaryAbove: number) {
    const each = Effect.fnUntraced(function*(event: string, items: ReadonlyArray<Record<string, unknown>>, platforms: Set<string>) {
      if (items.length === 0) return
      if (items.length > summaryAbove) {
        yield* Events.record(sql, workspaceId, event, { count: items.length, platforms: [...platforms].sort(), summary: true })
        return
      }
      for (const data of items) yield* Events.record(sql, workspaceId, event, data)
    })
    yield* each("comment.received", arrived.comments, arrived.platforms.comments)
    yield* each("message.received", arrived.messages, arrived.platforms.messages)
    for (const data of arrived.sent) yield* Events.record(sql, workspaceId, "message.sent", data)
  })

  return { store, announce }
}
