import { Option } from "effect"
import { Inbox as Domain } from "@herald/domain"

// The inbox's rows as the database holds them, and the domain objects the API answers with.

/** The text events carry: the first 280 characters (code points). */
export const excerpt = (text: string) => [...text].slice(0, 280).join("")

export interface CommentRow {
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
  readonly read: boolean
  readonly status: Domain.Status
  readonly failure: string | null
  readonly createdAt: Date
}

export const commentColumns =
  "id, account_id, platform, post_id, network_post_id, author, text, reply_to, permalink, outgoing, " +
  "(outgoing OR read_at IS NOT NULL) AS read, status, failure, created_at"

export const toComment = (row: CommentRow) =>
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
    read: row.read,
    status: row.status,
    failure: row.failure,
    createdAt: row.createdAt.toISOString()
  })

export interface ConversationRow {
  readonly id: string
  readonly accountId: string
  readonly platform: string
  readonly counterpart: Domain.Person
  readonly lastMessageAt: Date
  readonly unread: number
  readonly createdAt: Date
}

/** A conversation's columns, with the count of its received messages nobody has read (partial index). */
export const conversationColumns = "id, account_id, platform, counterpart, last_message_at, created_at, " +
  "(SELECT count(*) FROM direct_messages m WHERE m.conversation_id = conversations.id AND m.read_at IS NULL AND NOT m.outgoing)::int AS unread"

export const toConversation = (row: ConversationRow) =>
  new Domain.Conversation({
    id: row.id,
    accountId: row.accountId,
    platform: row.platform,
    counterpart: new Domain.Person(row.counterpart),
    lastMessageAt: row.lastMessageAt.toISOString(),
    unread: row.unread,
    createdAt: row.createdAt.toISOString()
  })

export interface MessageRow {
  readonly id: string
  readonly conversationId: string
  readonly sender: Domain.Person
  readonly text: string
  readonly attachments: number
  readonly outgoing: boolean
  readonly status: Domain.Status
  readonly failure: string | null
  readonly createdAt: Date
}

export const messageColumns = "id, conversation_id, sender, text, attachments, outgoing, status, failure, created_at"

export const toMessage = (row: MessageRow) =>
  new Domain.Message({
    id: row.id,
    conversationId: row.conversationId,
    from: new Domain.Person(row.sender),
    text: row.text,
    attachments: row.attachments,
    outgoing: row.outgoing,
    status: row.status,
    failure: row.failure,
    createdAt: row.createdAt.toISOString()
  })

/** A page of rows: the first `limit`, and where the next page starts when there is one. */
export const paged = <A extends { readonly id: string }>(rows: ReadonlyArray<A>, limit: number, at: (row: A) => Date) => {
  const shown = rows.slice(0, limit)
  const last = shown.at(-1)
  return {
    items: shown,
    next: rows.length > limit && last !== undefined ? Option.some({ at: at(last), id: last.id }) : Option.none()
  }
}
