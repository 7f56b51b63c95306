import type { InboxComment, InboxMessage } from "../Adapter.ts"

// The records a network's simulator keeps (`SimulatorState`, which re-exports them): accounts, grants, posts,
// and the comments and messages of the accounts' inboxes, with what a caller gives to make them.

export interface SimulatedAccount {
  readonly id: string
  readonly username: string
  readonly displayName: string
}

export interface Grant {
  readonly accountId: string
  readonly accessToken: string
  readonly refreshToken: string
  /** Epoch milliseconds; a simulator may change it on a grant it just made (long-lived or Page tokens). */
  expiresAt: number
  readonly revoked: boolean
}

export interface SimulatedPost {
  readonly id: string
  readonly accountId: string
  readonly text: string
  readonly media: ReadonlyArray<string>
  readonly replyTo: string | undefined
  readonly url: string
  readonly createdAt: number
  /** Network-specific extras the simulator keeps (privacy level, title, format). */
  readonly details: Readonly<Record<string, unknown>>
}

/**
 * A comment on one of an account's posts (or the account's own reply), as the network keeps it. `seq` orders
 * every comment and message of the simulator, so "what came after" is one number: the inbox cursor.
 */
export interface SimulatedComment extends InboxComment {
  readonly accountId: string
  readonly seq: number
}

/** A direct message to or from an account; `seq` as for comments. */
export interface SimulatedMessage extends InboxMessage {
  readonly accountId: string
  readonly seq: number
}

/** Who wrote a comment or a message; the id and name are looked up or made up when not given. */
export interface PersonInput {
  readonly id?: string | undefined
  readonly username: string
  readonly name?: string | undefined
}

export interface CommentInput {
  readonly accountId: string
  readonly author: PersonInput
  readonly text: string
  /** The post it is on; the account's newest post when absent. */
  readonly postId?: string | undefined
  /** The comment it answers. */
  readonly replyTo?: string | undefined
}

export interface MessageInput {
  readonly accountId: string
  /** The sender: the counterpart, or the account itself for an outgoing message. */
  readonly from: PersonInput
  readonly text: string
  readonly attachments?: number | undefined
  /** The conversation; when absent, the account's conversation with `from` (an outgoing message names it). */
  readonly conversationId?: string | undefined
  readonly outgoing?: boolean | undefined
}

export type Trigger = "fail" | "flaky" | "rate-limit" | "revoke"

export type TokenCheck =
  | { readonly _tag: "Valid"; readonly account: SimulatedAccount; readonly grant: Grant }
  | { readonly _tag: "Expired" }
  | { readonly _tag: "Revoked" }
  | { readonly _tag: "Unknown" }
