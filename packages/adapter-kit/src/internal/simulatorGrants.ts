import { createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto"
import { type Change, Journal, type Saved, type Table, type TableOptions } from "./journal.ts"
import type { Grant, SimulatedAccount, TokenCheck } from "./simulatorRecords.ts"

// The accounts, codes and tokens of a network's simulator, over the journal its records are saved in: the
// part of `SimulatorState` (which extends it) that OAuth and every authenticated call read.

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

export class SimulatorGrants {
  protected readonly journal = new Journal()
  /** This state instance among those sharing a store: what it saved need not be loaded back. */
  readonly origin = randomBytes(9).toString("base64url")
  // Derived from the account table, locally and on loads: a lookup that would otherwise scan every record.
  protected readonly byUsername = new Map<string, SimulatedAccount>()

  private readonly accountTable = this.journal.table<SimulatedAccount>("account", {
    onSet: (_, account) => this.byUsername.set(account.username, account)
  })
  private readonly codes = this.journal.table<{
    readonly accountId: string
    readonly redirectUri: string
    readonly codeChallenge: string | undefined
  }>("code")
  // Simulators lengthen a grant they just made (long-lived and Page tokens): noted on reads too.
  private readonly grants = this.journal.table<Grant>("grant", { mutable: true })
  private readonly revokedAccounts = this.journal.table<true>("revoked")
  // Refresh tokens already exchanged: a rotating network honours each once.
  private readonly spentRefreshTokens = this.journal.table<true>("spentRefresh")

  readonly accounts: ReadonlyMap<string, SimulatedAccount> = this.accountTable.view

  // Ids are the clock, a tag of this instance and a counter (19 digits, as networks' ids are): unique across
  // processes sharing a store, and within one unless a thousand are made in one millisecond.
  private readonly instanceTag = String(randomInt(1000)).padStart(3, "0")
  private nextId = 1
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
}
