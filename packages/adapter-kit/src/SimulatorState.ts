import { createHmac, randomBytes, timingSafeEqual } from "node:crypto"

// What a network's simulator remembers, in memory: the accounts that consented, the codes and tokens it
// issued, and what was "published". Shared by every simulator so they all honour the sandbox triggers the
// same way: text containing `#sandbox-fail` is rejected, `#sandbox-flaky` fails once with a transient
// error and then succeeds, `#sandbox-revoke` answers as a revoked token does.

export interface SimulatedAccount {
  readonly id: string
  readonly username: string
  readonly displayName: string
}

export interface Grant {
  readonly accountId: string
  readonly accessToken: string
  readonly refreshToken: string
  /** Epoch milliseconds. */
  expiresAt: number
  revoked: boolean
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

export type Trigger = "fail" | "flaky" | "revoke"

export type TokenCheck =
  | { readonly _tag: "Valid"; readonly account: SimulatedAccount; readonly grant: Grant }
  | { readonly _tag: "Expired" }
  | { readonly _tag: "Revoked" }
  | { readonly _tag: "Unknown" }

// Plain code with the wall clock: a simulator stands for a remote system, which keeps its own time.

// Tokens describe themselves (account, expiry) and carry an HMAC, so a token a simulator issued is still
// honoured by the same network's simulator in another Herald process or after a restart: sandbox accounts
// keep working. What lives only in memory is what a real network would also know: revocations, used codes.
const signingKey = "herald-sandbox-simulator"

interface Claims {
  readonly a: string
  readonly u: string
  readonly e: number
  readonly n: string
}

const sign = (network: string, payload: string) =>
  createHmac("sha256", `${signingKey}:${network}`).update(payload).digest("base64url")

export class SimulatorState {
  readonly accounts = new Map<string, SimulatedAccount>()
  readonly posts = new Map<string, SimulatedPost>()
  // The same posts by account, oldest first: what an account's timeline reads without scanning every post.
  private readonly postsByAccount = new Map<string, Array<SimulatedPost>>()
  private readonly postsByText = new Map<string, ReadonlyArray<SimulatedPost>>()
  private readonly byUsername = new Map<string, SimulatedAccount>()
  private readonly codes = new Map<string, {
    readonly accountId: string
    readonly redirectUri: string
    readonly codeChallenge: string | undefined
  }>()
  private readonly grants = new Map<string, Grant>()
  private readonly refreshTokens = new Map<string, Grant>()
  private readonly flakySeen = new Set<string>()
  private readonly revokedAccounts = new Set<string>()
  private nextId = 1
  /** How long access tokens live; a test can shorten it. */
  accessTokenMillis = 2 * 60 * 60 * 1000

  readonly network: string

  constructor(network: string) {
    this.network = network
  }

  /** A numeric-looking id, unique in this simulator. */
  id(): string {
    return `${Date.now()}${String(this.nextId++).padStart(6, "0")}`
  }

  /** The account a consent screen would log in: the one with that username, or a new one. */
  consent(username: string | undefined): SimulatedAccount {
    const name = username ?? `sandbox_${this.network}_${this.nextId}`
    const existing = this.byUsername.get(name)
    if (existing !== undefined) return existing
    const account = { id: this.id(), username: name, displayName: `Sandbox ${name}` }
    this.accounts.set(account.id, account)
    this.byUsername.set(name, account)
    return account
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
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8")) as Claims
    if (!this.accounts.has(claims.a)) {
      const account = { id: claims.a, username: claims.u, displayName: `Sandbox ${claims.u}` }
      this.accounts.set(account.id, account)
      this.byUsername.set(account.username, account)
    }
    return claims
  }

  grant(accountId: string): Grant {
    const expiresAt = Date.now() + this.accessTokenMillis
    const grant: Grant = {
      accountId,
      accessToken: this.token("at_", accountId, expiresAt),
      refreshToken: this.token("rt_", accountId, Number.MAX_SAFE_INTEGER),
      expiresAt,
      revoked: false
    }
    this.grants.set(grant.accessToken, grant)
    this.refreshTokens.set(grant.refreshToken, grant)
    return grant
  }

  /** A new access token for a refresh token; the old refresh token is used up (rotation). */
  refresh(refreshToken: string): Grant | undefined {
    const previous = this.refreshTokens.get(refreshToken)
    if (previous !== undefined) {
      if (previous.revoked) return undefined
      this.refreshTokens.delete(refreshToken)
      return this.grant(previous.accountId)
    }
    // A refresh token from another process or before a restart.
    const claims = this.verify("rt_", refreshToken)
    if (claims === undefined || this.revokedAccounts.has(claims.a)) return undefined
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
    for (const grant of this.grants.values()) if (grant.accountId === accountId) grant.expiresAt = 0
  }

  /** Revokes every grant of an account, refresh tokens included. */
  revoke(accountId: string): void {
    this.revokedAccounts.add(accountId)
    for (const grant of this.grants.values()) if (grant.accountId === accountId) grant.revoked = true
  }

  /** The sandbox trigger in a text, if any; `#sandbox-revoke` also revokes the account's grants. */
  trigger(text: string, accountId: string): Trigger | undefined {
    if (text.includes("#sandbox-revoke")) {
      this.revoke(accountId)
      return "revoke"
    }
    if (text.includes("#sandbox-fail")) return "fail"
    if (text.includes("#sandbox-flaky")) {
      const key = `${accountId}\u0000${text}`
      if (!this.flakySeen.has(key)) {
        this.flakySeen.add(key)
        return "flaky"
      }
    }
    return undefined
  }

  record(post: Omit<SimulatedPost, "createdAt">): SimulatedPost {
    const stored = { ...post, createdAt: Date.now() }
    this.posts.set(post.id, stored)
    let ofAccount = this.postsByAccount.get(post.accountId)
    if (ofAccount === undefined) {
      ofAccount = []
      this.postsByAccount.set(post.accountId, ofAccount)
    }
    ofAccount.push(stored)
    const key = `${post.accountId}\u0000${post.text}`
    this.postsByText.set(key, [...(this.postsByText.get(key) ?? []), stored])
    return stored
  }

  /** The account's posts with exactly this text, oldest first (networks that refuse duplicates look here). */
  postsWithText(accountId: string, text: string): ReadonlyArray<SimulatedPost> {
    return this.postsByText.get(`${accountId}\u0000${text}`) ?? []
  }

  /** The account's posts, newest first (what reconcile searches). */
  postsOf(accountId: string): ReadonlyArray<SimulatedPost> {
    return [...(this.postsByAccount.get(accountId) ?? [])].reverse()
  }
}
