import type { Person } from "./Adapter.ts"
import type { Change, Saved, Table, TableOptions } from "./internal/journal.ts"
import { SimulatorGrants } from "./internal/simulatorGrants.ts"
import type {
  CommentInput,
  MessageInput,
  PersonInput,
  SimulatedComment,
  SimulatedMessage,
  SimulatedPost,
  Trigger
} from "./internal/simulatorRecords.ts"

// What a network's simulator remembers: the accounts that consented, the codes and tokens it issued, what
// was "published", and the comments and direct messages of the accounts' inboxes. Shared by every
// simulator so they all honour the sandbox triggers the same way: text containing `#sandbox-fail` is
// rejected, `#sandbox-fail-once` is rejected the first time only, `#sandbox-flaky` fails once with a
// transient error and then succeeds, `#sandbox-rate-limit` is answered once as the network answers a caller
// over its rate limit (with its own retry time, `rateLimitResetMs` from now) and then succeeds,
// `#sandbox-revoke` answers as a revoked token does. It is held in
// memory as tables of records; `SimulatorStore.serve` saves what each request wrote and loads what other
// processes saved, so the sandbox outlives restarts and is the same in every process. A simulator keeps its own records (containers, uploads) in `table(name)`.
// The accounts, codes and tokens are `SimulatorGrants` (internal/simulatorGrants.ts), which this extends;
// the records' shapes are in internal/simulatorRecords.ts.

export type { Change, Saved, Table, TableOptions }
export type {
  CommentInput,
  Grant,
  MessageInput,
  PersonInput,
  SimulatedAccount,
  SimulatedComment,
  SimulatedMessage,
  SimulatedPost,
  TokenCheck,
  Trigger
} from "./internal/simulatorRecords.ts"

/**
 * How long a simulator tells the caller to wait after `#sandbox-rate-limit`, in the network's own retry
 * field (a reset time, a `Retry-After`): long enough that an adapter reading it can be told from one that
 * guesses, short enough for the sandbox.
 */
export const rateLimitResetMs = 60_000

const failOnce = "#sandbox-fail-once"

/**
 * Why the sandbox refused a text (`fail`), in plain words: every simulator puts this where its network's
 * "content rejected" answer carries its message, so the person reading the failure sees the trigger they
 * typed rather than the network's wording for a reason that never happened.
 */
export const refusal = (text: string): string =>
  text.replaceAll(failOnce, "").includes("#sandbox-fail")
    ? "The sandbox refused this because its text contains #sandbox-fail."
    : "The sandbox refused this once because its text contains #sandbox-fail-once; sending it again goes through."

/** The items of a list ordered by `seq` that come after `seq`, read from the end: polling asks for the newest. */
const after = <A extends { readonly seq: number }>(items: ReadonlyArray<A> | undefined, seq: number): ReadonlyArray<A> => {
  if (items === undefined) return []
  let start = items.length
  while (start > 0 && items[start - 1]!.seq > seq) start--
  return items.slice(start)
}

/** The list under a key of a map of lists, made when absent. */
const listOf = <A>(map: Map<string, Array<A>>, key: string): Array<A> => {
  let list = map.get(key)
  if (list === undefined) {
    list = []
    map.set(key, list)
  }
  return list
}

/**
 * Keeps a list index current: a new item goes in at its place by `order` (at the end, unless loaded from
 * another process out of order), a changed one replaces its old self.
 */
const index = <A extends { readonly id: string }>(list: Array<A>, item: A, previous: A | undefined, order: (item: A) => number) => {
  if (previous !== undefined) {
    const at = list.findIndex((entry) => entry.id === item.id)
    if (at >= 0) {
      list[at] = item
      return
    }
  }
  let at = list.length
  while (at > 0 && order(list[at - 1]!) > order(item)) at--
  list.splice(at, 0, item)
}

/** A key made of several parts (JSON, so no part can run into the next). */
const compound = (...parts: ReadonlyArray<string>) => JSON.stringify(parts)

export class SimulatorState extends SimulatorGrants {
  // The same posts by account, oldest first: what an account's timeline reads without scanning every post.
  private readonly postsByAccount = new Map<string, Array<SimulatedPost>>()
  private readonly postsByText = new Map<string, Array<SimulatedPost>>()
  // Comments and messages by account, in `seq` order: what an inbox poll reads.
  private readonly commentsByAccount = new Map<string, Array<SimulatedComment>>()
  private readonly messagesByAccount = new Map<string, Array<SimulatedMessage>>()
  // Conversation id to its account.
  private readonly conversations = new Map<string, string>()

  private readonly postTable = this.journal.table<SimulatedPost>("post", {
    onSet: (_, post, previous) => {
      index(listOf(this.postsByAccount, post.accountId), post, previous, (entry) => entry.createdAt)
      index(listOf(this.postsByText, compound(post.accountId, post.text)), post, previous, (entry) => entry.createdAt)
    }
  })
  private readonly commentTable = this.journal.table<SimulatedComment>("comment", {
    onSet: (_, comment, previous) => {
      this.lastSeq = Math.max(this.lastSeq, comment.seq)
      index(listOf(this.commentsByAccount, comment.accountId), comment, previous, (entry) => entry.seq)
    }
  })
  private readonly messageTable = this.journal.table<SimulatedMessage>("message", {
    onSet: (_, message, previous) => {
      this.lastSeq = Math.max(this.lastSeq, message.seq)
      this.conversations.set(message.conversationId, message.accountId)
      index(listOf(this.messagesByAccount, message.accountId), message, previous, (entry) => entry.seq)
    }
  })
  private readonly flakySeen = this.journal.table<true>("flaky")
  private readonly rateLimitedOnce = this.journal.table<true>("rateLimited")
  private readonly failedOnce = this.journal.table<true>("failedOnce")
  // (account, counterpart) to its conversation: one thread per person.
  private readonly conversationsByCounterpart = this.journal.table<string>("conversation")
  // People who are not simulated accounts keep one id however often they write.
  private readonly people = this.journal.table<string>("person")

  readonly posts: ReadonlyMap<string, SimulatedPost> = this.postTable.view
  readonly comments: ReadonlyMap<string, SimulatedComment> = this.commentTable.view

  private lastSeq = 0

  /**
   * The sandbox trigger in a text, if any; `#sandbox-revoke` also revokes the account's grants.
   * `#sandbox-fail-once` answers `fail` the first time the account sends that text and nothing after, so a
   * manual retry goes through (`#sandbox-flaky` and `#sandbox-rate-limit` likewise); what was refused is
   * kept with the rest of the state, so the retry may reach any process.
   */
  trigger(text: string, accountId: string): Trigger | undefined {
    if (text.includes("#sandbox-revoke")) {
      this.revoke(accountId)
      return "revoke"
    }
    if (text.includes(failOnce) && this.once(this.failedOnce, accountId, text)) return "fail"
    if (text.replaceAll(failOnce, "").includes("#sandbox-fail")) return "fail"
    if (text.includes("#sandbox-flaky") && this.once(this.flakySeen, accountId, text)) return "flaky"
    if (text.includes("#sandbox-rate-limit") && this.once(this.rateLimitedOnce, accountId, text)) return "rate-limit"
    return undefined
  }

  /** True the first time the account sends `text` for the trigger `seen` records; false after. */
  private once(seen: Table<true>, accountId: string, text: string): boolean {
    const key = compound(accountId, text)
    if (seen.has(key)) return false
    seen.set(key, true)
    return true
  }

  record(post: Omit<SimulatedPost, "createdAt">): SimulatedPost {
    const stored = { ...post, createdAt: Date.now() }
    this.postTable.set(post.id, stored)
    return stored
  }

  /** The account's posts with exactly this text, oldest first (networks that refuse duplicates look here). */
  postsWithText(accountId: string, text: string): ReadonlyArray<SimulatedPost> {
    return this.postsByText.get(compound(accountId, text)) ?? []
  }

  /** The account's posts, newest first (what reconcile searches). */
  postsOf(accountId: string): ReadonlyArray<SimulatedPost> {
    return [...(this.postsByAccount.get(accountId) ?? [])].reverse()
  }

  /** The last sequence number handed out: an inbox cursor that skips everything so far. */
  get sequence(): number {
    return this.lastSeq
  }

  // From the clock, like ids: a cursor Herald kept from before a restart must not be ahead of what comes
  // after it.
  private nextSeq(): number {
    this.lastSeq = Math.max(this.lastSeq + 1, Date.now())
    return this.lastSeq
  }

  /** A person as the network shows them: a simulated account as itself, anyone else with a stable made-up id. */
  person(input: PersonInput): Person {
    const account = this.byUsername.get(input.username)
    let id = input.id ?? account?.id ?? this.people.get(input.username)
    if (id === undefined) {
      id = this.id()
      this.people.set(input.username, id)
    }
    return { id, username: input.username, name: input.name ?? account?.displayName ?? null }
  }

  /** Stores a comment; its permalink hangs off the post's URL, so a comment on no known post has none. */
  addComment(input: CommentInput): SimulatedComment {
    const postId = input.postId ?? this.postsByAccount.get(input.accountId)?.at(-1)?.id ?? "none"
    const post = this.posts.get(postId)
    const id = this.id()
    const comment: SimulatedComment = {
      id,
      accountId: input.accountId,
      seq: this.nextSeq(),
      postId,
      replyTo: input.replyTo ?? null,
      author: this.person(input.author),
      text: input.text,
      permalink: post === undefined ? null : `${post.url}#comment-${id}`,
      createdAt: new Date().toISOString()
    }
    this.commentTable.set(id, comment)
    return comment
  }

  /** Stores a message in its conversation, starting the conversation on a first message. */
  addMessage(input: MessageInput): SimulatedMessage {
    let conversationId = input.conversationId
    if (conversationId === undefined) {
      const key = compound(input.accountId, input.from.username)
      conversationId = this.conversationsByCounterpart.get(key) ?? this.id()
      this.conversationsByCounterpart.set(key, conversationId)
    }
    const message: SimulatedMessage = {
      id: this.id(),
      accountId: input.accountId,
      seq: this.nextSeq(),
      conversationId,
      from: this.person(input.from),
      text: input.text,
      attachments: input.attachments ?? 0,
      outgoing: input.outgoing ?? false,
      createdAt: new Date().toISOString()
    }
    this.messageTable.set(message.id, message)
    return message
  }

  /** The account a conversation belongs to, if it exists. */
  conversationAccount(conversationId: string): string | undefined {
    return this.conversations.get(conversationId)
  }

  /** The account's comments after a sequence number, oldest first. */
  commentsAfter(accountId: string, seq: number): ReadonlyArray<SimulatedComment> {
    return after(this.commentsByAccount.get(accountId), seq)
  }

  /** The account's messages after a sequence number, oldest first. */
  messagesAfter(accountId: string, seq: number): ReadonlyArray<SimulatedMessage> {
    return after(this.messagesByAccount.get(accountId), seq)
  }
}
