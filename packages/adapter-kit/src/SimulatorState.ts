import { createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto"
import type { InboxComment, InboxMessage, Person } from "./Adapter.ts"
import { type Change, Journal, type Saved, type Table, type TableOptions } from "./internal/journal.ts"

// What a network's simulator remembers: the accounts that consented, the codes and tokens it issued, what
// was "published", and the comments and direct messages of the accounts' inboxes. Shared by every
// simulator so they all honour the sandbox triggers the same way: text containing `#sandbox-fail` is
// rejected, `#sandbox-fail-once` is rejected the first time only, `#sandbox-flaky` fails once with a
// transient error and then succeeds, `#sandbox-rate-limit` is answered once as the network answers a caller
// over its rate limit (with its own retry time, `rateLimitResetMs` from now) and then succeeds,
// `#sandbox-revoke` answers as a revoked token does. It is held in
// memory as tables of records; `SimulatorStore.serve` saves what each request wrote and loads what other
// processes saved, so the sandbox outlives restarts and is the same in every process. A simulator keeps its own records (containers, uploads) in `table(name)`.

export type { Change, Saved, Table, TableOptions }

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

export type TokenCheck =
  | { readonly _tag: "Valid"; readonly account: SimulatedAccount; readonly grant: Grant }
  | { readonly _tag: "Expired" }
  | { readonly _tag: "Revoked" }
  | { readonly _tag: "Unknown" }

// Plain code with the wall clock: a simulator stands for a remote system, which keeps its own time.

// Tokens describe themselves (account, expiry) and carry an HMAC, so a token is honoured by the network's
// simulator in any process even before the grant's record reaches it.
const signingKey = "herald-sandbox-simulator"

interface Claims {
  readonly a: string
  readonly u: string
  readonly e: number
  readonly n: string
}

const sign = (network: string, payload: string) =>
  createHmac("sha256", `${signingKey}:${network}`).update(payload).digest("base64url")

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

export class SimulatorState {
  private readonly journal = new Journal()
  /** This state instance among those sharing a store: what it saved need not be loaded back. */
  readonly origin = randomBytes(9).toString("base64url")
  // Derived from the tables below, locally and on loads: lookups that would otherwise scan every record.
  private readonly byUsername = new Map<string, SimulatedAccount>()
  // The same posts by account, oldest first: what an account's timeline reads without scanning every post.
  private readonly postsByAccount = new Map<string, Array<SimulatedPost>>()
  private readonly postsByText = new Map<string, Array<SimulatedPost>>()
  // Comments and messages by account, in `seq` order: what an inbox poll reads.
  private readonly commentsByAccount = new Map<string, Array<SimulatedComment>>()
  private readonly messagesByAccount = new Map<string, Array<SimulatedMessage>>()
  // Conversation id to its account.
  private readonly conversations = new Map<string, string>()

  private readonly accountTable = this.journal.table<SimulatedAccount>("account", {
    onSet: (_, account) => this.byUsername.set(account.username, account)
  })
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
  private readonly codes = this.journal.table<{
    readonly accountId: string
    readonly redirectUri: string
    readonly codeChallenge: string | undefined
  }>("code")
  // Simulators lengthen a grant they just made (long-lived and Page tokens): noted on reads too.
  private readonly grants = this.journal.table<Grant>("grant", { mutable: true })
  private readonly flakySeen = this.journal.table<true>("flaky")
  private readonly rateLimitedOnce = this.journal.table<true>("rateLimited")
  private readonly failedOnce = this.journal.table<true>("failedOnce")
  private readonly revokedAccounts = this.journal.table<true>("revoked")
  // Refresh tokens already exchanged: a rotating network honours each once.
  private readonly spentRefreshTokens = this.journal.table<true>("spentRefresh")
  // (account, counterpart) to its conversation: one thread per person.
  private readonly conversationsByCounterpart = this.journal.table<string>("conversation")
  // People who are not simulated accounts keep one id however often they write.
  private readonly people = this.journal.table<string>("person")

  readonly accounts: ReadonlyMap<string, SimulatedAccount> = this.accountTable.view
  readonly posts: ReadonlyMap<string, SimulatedPost> = this.postTable.view
  readonly comments: ReadonlyMap<string, SimulatedComment> = this.commentTable.view

  // Ids are the clock, a tag of this instance and a counter (19 digits, as networks' ids are): unique across
  // processes sharing a store, and within one unless a thousand are made in one millisecond.
  private readonly instanceTag = String(randomInt(1000)).padStart(3, "0")
  private nextId = 1
  private lastSeq = 0
  /** How long access tokens live; a test can shorten it. */
  accessTokenMillis = 2 * 60 * 60 * 1000

  readonly network: string

  constructor(network: string) {
    this.network = network
  }

  /** A simulator's own records under a name, saved and shared like the kit's (see `Table`). */
  table<V>(name: string, options?: TableOptions<V>): Table<V> {
    return this.journal.table(`${this.network}:${name}`, options)
  }

  /** What was written since the last call, to save; each written key once, as it is now. */
  takeChanges(): Array<Change> {
    return this.journal.takeChanges()
  }

  /** Records saved by other state instances (other processes, or this one before a restart). */
  load(saved: ReadonlyArray<Saved>): void {
    this.journal.load(saved, this.origin)
  }

  /** The store version loaded so far: the next load asks for what was saved after it. */
  get version(): number {
    return this.journal.version
  }

  /** A numeric-looking id, unique in this simulator. */
  id(): string {
    return `${Date.now()}${this.instanceTag}${String(this.nextId++ % 1000).padStart(3, "0")}`
  }

  /** The account a consent screen would log in: the one with that username, or a new one. */
  consent(username: string | undefined): SimulatedAccount {
    const id = this.id()
    const name = username ?? `sandbox_${this.network}_${id}`
    const existing = this.byUsername.get(name)
    if (existing !== undefined) return existing
    const account = { id, username: name, displayName: `Sandbox ${name}` }
    this.accountTable.set(account.id, account)
    return account
  }

  /** The account with that username, if it consented here (or a token of it was seen). */
  accountByUsername(username: string): SimulatedAccount | undefined {
    return this.byUsername.get(username)
  }

  issueCode(accountId: string, redirectUri: string, codeChallenge: string | undefined): string {
    const code = `code_${randomBytes(18).toString("base64url")}`
    this.codes.set(code, { accountId, redirectUri, codeChallenge })
    return code
  }

  /** Redeems a code once; the redirect URI and PKCE verifier must match what the code was issued for. */
  redeemCode(code: string, redirectUri: string, checkVerifier: (challenge: string) => boolean): Grant | undefined {
    const issued = this.codes.get(code)
    if (issued === undefined || issued.redirectUri !== redirectUri) return undefined
    // Connecting again after a revocation is a new grant.
    this.revokedAccounts.delete(issued.accountId)
    if (issued.codeChallenge !== undefined && !checkVerifier(issued.codeChallenge)) return undefined
    this.codes.delete(code)
    return this.grant(issued.accountId)
  }

  private token(prefix: string, accountId: string, expiresAt: number): string {
    const account = this.accounts.get(accountId)
    const claims: Claims = { a: accountId, u: account?.username ?? "", e: expiresAt, n: randomBytes(9).toString("base64url") }
    const payload = Buffer.from(JSON.stringify(claims)).toString("base64url")
    return `${prefix}${payload}.${sign(this.network, prefix + payload)}`
  }

  /** The claims of a token this network's simulator signed, in any process; undefined when forged. */
  private verify(prefix: string, value: string): Claims | undefined {
    if (!value.startsWith(prefix)) return undefined
    const [payload, signature] = value.slice(prefix.length).split(".")
    if (payload === undefined || signature === undefined) return undefined
    const expected = Buffer.from(sign(this.network, prefix + payload))
    const given = Buffer.from(signature)
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined
    // eslint-disable-next-line no-restricted-properties -- the payload is one this simulator signed, its signature checked just above
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Claims
    if (!this.accounts.has(claims.a)) this.accountTable.set(claims.a, { id: claims.a, username: claims.u, displayName: `Sandbox ${claims.u}` })
    return claims
  }

  /** A new grant for the account: an access token and a refresh token (or the one it keeps, `refreshToken`). */
  grant(accountId: string, refreshToken?: string): Grant {
    const expiresAt = Date.now() + this.accessTokenMillis
    const grant: Grant = {
      accountId,
      accessToken: this.token("at_", accountId, expiresAt),
      refreshToken: refreshToken ?? this.token("rt_", accountId, Number.MAX_SAFE_INTEGER),
      expiresAt,
      revoked: false
    }
    this.grants.set(grant.accessToken, grant)
    return grant
  }

  /**
   * A new grant for a refresh token of an account whose grants were not revoked since. Refresh tokens
   * rotate, as real networks do (OAuth 2.1 for public clients, RFC 6749 §10.4): each is exchanged once for a
   * grant with a new one, and one already used is refused, so a client that keeps a spent token fails in the
   * sandbox as it would for real. `reuse` is for a network that documents keeping one refresh token (Google,
   * LinkedIn): it is honoured every time and the grant carries it again.
   */
  refresh(refreshToken: string, options?: { readonly reuse?: boolean }): Grant | undefined {
    const claims = this.verify("rt_", refreshToken)
    if (claims === undefined || this.revokedAccounts.has(claims.a)) return undefined
    if (options?.reuse === true) return this.grant(claims.a, refreshToken)
    if (this.spentRefreshTokens.has(refreshToken)) return undefined
    this.spentRefreshTokens.set(refreshToken, true)
    return this.grant(claims.a)
  }

  check(accessToken: string | undefined): TokenCheck {
    let grant = accessToken === undefined ? undefined : this.grants.get(accessToken)
    if (grant === undefined && accessToken !== undefined) {
      const claims = this.verify("at_", accessToken)
      if (claims !== undefined) {
        grant = { accountId: claims.a, accessToken, refreshToken: "", expiresAt: claims.e, revoked: this.revokedAccounts.has(claims.a) }
        this.grants.set(accessToken, grant)
      }
    }
    if (grant === undefined) return { _tag: "Unknown" }
    if (grant.revoked) return { _tag: "Revoked" }
    if (grant.expiresAt <= Date.now()) return { _tag: "Expired" }
    const account = this.accounts.get(grant.accountId)
    return account === undefined ? { _tag: "Unknown" } : { _tag: "Valid", account, grant }
  }

  /** Makes every access token of an account expire now (tests of refresh). */
  expire(accountId: string): void {
    for (const [token, grant] of this.grants.view) if (grant.accountId === accountId) this.grants.set(token, { ...grant, expiresAt: 0 })
  }

  /** Revokes every grant of an account, refresh tokens included. */
  revoke(accountId: string): void {
    this.revokedAccounts.set(accountId, true)
    for (const [token, grant] of this.grants.view) if (grant.accountId === accountId) this.grants.set(token, { ...grant, revoked: true })
  }

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
