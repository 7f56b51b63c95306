import type { Effect, Option } from "effect"
import type { PublishError } from "../PublishError.ts"
import type { Account } from "./connectHooks.ts"

/**
 * The inbox part of the adapter contract (re-exported by `Adapter`): comments and direct messages as Herald
 * reads them, the hooks that read and answer them, and a network's own webhook for news.
 */

/** Someone on the network: who wrote a comment or a message. */
export interface Person {
  /** The network's id of the person. */
  readonly id: string
  readonly username: string
  readonly name: string | null
}

/** A comment on one of the account's posts. */
export interface InboxComment {
  /** The network's id of the comment. */
  readonly id: string
  /** The network's id of the post it is on (Herald links it to its own post when it made that one). */
  readonly postId: string
  /** The network's id of the comment it answers; null for a comment on the post itself. */
  readonly replyTo: string | null
  readonly author: Person
  readonly text: string
  /** Where a person opens the comment; null where the network has no link to one comment. */
  readonly permalink: string | null
  /** ISO 8601. */
  readonly createdAt: string
}

/** A direct message to or from the account. */
export interface InboxMessage {
  /** The network's id of the message. */
  readonly id: string
  /** The network's id of the conversation (thread) it belongs to. */
  readonly conversationId: string
  readonly from: Person
  readonly text: string
  /** How many files came with it. */
  readonly attachments: number
  /** Sent by the account itself (a person answering in the network's own app). */
  readonly outgoing: boolean
  /** ISO 8601. */
  readonly createdAt: string
}

/** What arrived since a cursor, and the cursor to ask from next time. */
export interface InboxPage {
  readonly comments: ReadonlyArray<InboxComment>
  readonly messages: ReadonlyArray<InboxMessage>
  readonly cursor: string
}

/**
 * A network's own webhook for inbox news: Herald serves it at `/networks/<network>/webhook` and, for each
 * account the network says has news, reads that account's inbox at once instead of at its next turn. The
 * adapter checks the network's signature over the raw body; a request that fails it is refused.
 */
export interface NetworkWebhook {
  /** The network's subscription check (a `GET` with a challenge to echo); none when it has none. */
  readonly handshake?: (query: Readonly<Record<string, string>>) => Option.Option<{ readonly status: number; readonly body: string }>
  /** The network account ids with news, from a signed notification; fails when the signature is wrong. */
  readonly receive: (input: {
    readonly headers: Readonly<Record<string, string | undefined>>
    readonly body: Uint8Array
  }) => Effect.Effect<ReadonlyArray<string>, { readonly _tag: "WebhookRejected"; readonly message: string }>
}

/**
 * The inbox of a network that lets Herald read comments and direct messages and answer them. `fetch` is
 * polled per account; `cursor` is null the first time (then only what arrives from now on is news, so an
 * account connected with years of comments does not flood the inbox).
 */
export interface InboxHooks {
  /**
   * The least time between two reads of one account, where the network's quota cannot afford Herald's
   * default (a minute): YouTube's daily units, LinkedIn's daily calls.
   */
  readonly pollEveryMs?: number
  /** Where the network announces news itself; polling alone otherwise. */
  readonly webhook?: NetworkWebhook
  readonly fetch: (input: { readonly account: Account; readonly cursor: string | null }) => Effect.Effect<InboxPage, PublishError>
  readonly replyToComment: (input: {
    readonly account: Account
    readonly comment: InboxComment
    readonly text: string
  }) => Effect.Effect<{ readonly id: string; readonly permalink: string | null }, PublishError>
  readonly sendMessage: (input: {
    readonly account: Account
    readonly conversationId: string
    readonly text: string
  }) => Effect.Effect<{ readonly id: string }, PublishError>
}
