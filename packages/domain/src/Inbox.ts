import { Schema } from "effect"

/** Someone on a network: who wrote a comment or a message. */
export class Person extends Schema.Class<Person>("Person")({
  /** The network's id of the person. */
  id: Schema.String,
  username: Schema.String,
  name: Schema.NullOr(Schema.String)
}) {}

/**
 * Where an item stands: `received` from someone else; `sent` on the network (through Herald or in the
 * network's own app); `sending` stored by Herald before its network call, not settled yet; `unknown` when
 * Herald cannot tell whether the network took it (check there before sending it again); `failed` when the
 * network refused it (`failure` says why).
 */
export const Status = Schema.Literals(["received", "sent", "sending", "unknown", "failed"])
export type Status = typeof Status.Type

/** A comment on one of the workspace's accounts' posts, or the account's own reply to one. */
export class Comment extends Schema.Class<Comment>("Comment")({
  id: Schema.String,
  accountId: Schema.String,
  platform: Schema.String,
  /** The Herald post it is on, when Herald made that post; null otherwise. */
  postId: Schema.NullOr(Schema.String),
  /** The network's id of the post it is on. */
  networkPostId: Schema.String,
  author: Person,
  text: Schema.String,
  /** The id of the comment (in Herald's inbox) it answers; null for a comment on the post itself. */
  reply: Schema.NullOr(Schema.String),
  /** Where to open it on the network; null where the network links no single comment. */
  permalink: Schema.NullOr(Schema.String),
  /** Written by the account itself (a reply sent through Herald or on the network). */
  outgoing: Schema.Boolean,
  /** Marked read by someone in the workspace (`POST .../read`); the account's own comments are always read. */
  read: Schema.Boolean,
  status: Status,
  /** Why it failed, or why its outcome is unknown; null otherwise. */
  failure: Schema.NullOr(Schema.String),
  createdAt: Schema.String
}) {}

/** A direct-message thread between an account and one person. */
export class Conversation extends Schema.Class<Conversation>("Conversation")({
  id: Schema.String,
  accountId: Schema.String,
  platform: Schema.String,
  counterpart: Person,
  lastMessageAt: Schema.String,
  /** Messages received in it that nobody in the workspace has read yet (`POST .../read` reads them all). */
  unread: Schema.Int,
  createdAt: Schema.String
}) {}

export class Message extends Schema.Class<Message>("Message")({
  id: Schema.String,
  conversationId: Schema.String,
  from: Person,
  text: Schema.String,
  attachments: Schema.Int,
  /** Sent by the account (through Herald or in the network's app). */
  outgoing: Schema.Boolean,
  status: Status,
  /** Why it failed, or why its outcome is unknown; null otherwise. */
  failure: Schema.NullOr(Schema.String),
  createdAt: Schema.String
}) {}

/** What one account has unread: comments, and conversations with at least one unread message. */
export class AccountUnread extends Schema.Class<AccountUnread>("AccountUnread")({
  accountId: Schema.String,
  platform: Schema.String,
  comments: Schema.Int,
  conversations: Schema.Int
}) {}

/** The workspace's unread items: in all, and per account (every account, those with none at 0). */
export class Unread extends Schema.Class<Unread>("Unread")({
  comments: Schema.Int,
  conversations: Schema.Int,
  accounts: Schema.Array(AccountUnread)
}) {}
