import { Clock, Duration, Effect, Option, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { Ids as DomainIds, Workspace } from "@herald/domain"
import * as Ids from "../Ids.ts"
import { OAuthRefused, TokenRefused } from "../OAuthErrors.ts"
import * as Rules from "./oauthRules.ts"
import { dieOnBadRow, Timestamp } from "./rows.ts"

// The token endpoint's two grants, revocation and the access check of `/api/mcp` (decision 0045). Access
// tokens live an hour; refresh tokens rotate on every use, and a used one presented again (a copy in the
// wrong hands, RFC 9700 section 4.14.2) ends the whole grant. Every check reads the database, so a revoked
// grant is refused at once by every process.

const accessLifetime = Duration.hours(1)
const refreshLifetime = Duration.days(30)
// `last_used_at` is written at most this often per grant.
const touchEvery = Duration.minutes(1)

/** `POST /token`'s answer (RFC 6749, section 5.1). */
export interface Issued {
  readonly access_token: string
  readonly token_type: "Bearer"
  readonly expires_in: number
  readonly refresh_token: string
  readonly scope: string
}

/**
 * Who an access token acts as: the consenting member, with the member's role now, and whether that member
 * let the assistant publish without approval (decision 0048).
 */
export interface Principal {
  readonly workspaceId: DomainIds.WorkspaceId
  readonly grantId: string
  readonly memberId: DomainIds.MemberId
  readonly role: Workspace.Role
  readonly publishesDirectly: boolean
}

type Form = Readonly<Record<string, string | undefined>>

/** A request whose code is presented: decided, so its member and the code's expiry are set. */
const CodeRow = Schema.Struct({
  id: Schema.String,
  clientId: Schema.String,
  redirectUri: Schema.String,
  codeChallenge: Schema.String,
  resource: Schema.String,
  scopes: Schema.Array(Schema.String),
  memberId: Schema.String,
  codeExpiresAt: Timestamp,
  grantId: Schema.NullOr(Schema.String),
  publishesDirectly: Schema.Boolean
})

/** A refresh token with its grant. */
const RefreshRow = Schema.Struct({
  grantId: Schema.String,
  expiresAt: Timestamp,
  usedAt: Schema.NullOr(Timestamp),
  clientId: Schema.String,
  resource: Schema.String,
  scopes: Schema.Array(Schema.String),
  revokedAt: Schema.NullOr(Timestamp)
})

/** An access token with its grant and the grant's member's role now. */
const AccessRow = Schema.Struct({
  expiresAt: Timestamp,
  grantId: Schema.String,
  workspaceId: DomainIds.WorkspaceId,
  memberId: DomainIds.MemberId,
  role: Workspace.Role,
  revokedAt: Schema.NullOr(Timestamp),
  lastUsedAt: Schema.NullOr(Timestamp),
  publishesDirectly: Schema.Boolean
})

const invalidGrant = (description: string) => new OAuthRefused({ error: "invalid_grant", description })

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const codeOf = SqlSchema.findOneOption({
    Request: Schema.String,
    Result: CodeRow,
    execute: (codeHash) =>
      sql`
      SELECT id, client_id, redirect_uri, code_challenge, resource, scopes, member_id, code_expires_at, grant_id, publishes_directly
      FROM oauth_requests WHERE code_hash = ${codeHash}`
  })
  const refreshOf = SqlSchema.findOneOption({
    Request: Schema.String,
    Result: RefreshRow,
    execute: (hash) =>
      sql`
      SELECT t.grant_id, t.expires_at, t.used_at, g.client_id, g.resource, g.scopes, g.revoked_at
      FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id WHERE t.hash = ${hash} AND t.kind = 'refresh'`
  })
  const clientOf = SqlSchema.findOneOption({
    Request: Schema.String,
    Result: Schema.Struct({ id: Schema.String }),
    execute: (clientId) => sql`SELECT id FROM oauth_clients WHERE id = ${clientId}`
  })
  const grantOf = SqlSchema.findOneOption({
    Request: Schema.String,
    Result: Schema.Struct({ grantId: Schema.String }),
    execute: (hash) => sql`SELECT grant_id FROM oauth_tokens WHERE hash = ${hash}`
  })
  const accessOf = SqlSchema.findOneOption({
    Request: Schema.String,
    Result: AccessRow,
    execute: (hash) =>
      sql`
      SELECT t.expires_at, g.id AS grant_id, g.workspace_id, g.member_id, m.role, g.revoked_at, g.last_used_at, g.publishes_directly
      FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id JOIN members m ON m.id = g.member_id
      WHERE t.hash = ${hash} AND t.kind = 'access'`
  })

  const endGrant = (grantId: string) =>
    sql`UPDATE oauth_grants SET revoked_at = coalesce(revoked_at, now()) WHERE id = ${grantId}`

  const issue = Effect.fnUntraced(function*(grantId: string, scopes: ReadonlyArray<string>) {
    const now = yield* Clock.currentTimeMillis
    const access = Rules.secret(Rules.accessPrefix)
    const refresh = Rules.secret(Rules.refreshPrefix)
    // A grant's lapsed tokens go as it gets new ones; used refresh tokens stay until they lapse, to catch reuse.
    yield* sql`DELETE FROM oauth_tokens WHERE grant_id = ${grantId} AND expires_at < ${new Date(now)}`
    yield* sql`
      INSERT INTO oauth_tokens (hash, grant_id, kind, expires_at) VALUES
        (${Rules.digest(access)}, ${grantId}, 'access', ${new Date(now + Duration.toMillis(accessLifetime))}),
        (${Rules.digest(refresh)}, ${grantId}, 'refresh', ${new Date(now + Duration.toMillis(refreshLifetime))})`
    return {
      access_token: access,
      token_type: "Bearer",
      expires_in: Duration.toSeconds(accessLifetime),
      refresh_token: refresh,
      scope: scopes.join(" ")
    } satisfies Issued
  })

  const resourceMatches = (form: Form, resource: string) =>
    form["resource"] === undefined || form["resource"] === resource
      ? Effect.void
      : Effect.fail(new OAuthRefused({ error: "invalid_target", description: `resource must be ${resource}` }))

  const exchange = Effect.fnUntraced(function*(form: Form, clientId: string) {
    const code = form["code"]
    if (code === undefined) return yield* new OAuthRefused({ error: "invalid_request", description: "code is missing" })
    const now = yield* Clock.currentTimeMillis
    const found = yield* dieOnBadRow(codeOf(Rules.digest(code)))
    if (Option.isNone(found)) return yield* invalidGrant("The code is unknown")
    const row = found.value
    // A code used twice was copied: the tokens it gave are revoked too (OAuth 2.1, section 4.1.3).
    if (row.grantId !== null) {
      yield* endGrant(row.grantId)
      return yield* invalidGrant("The code was already used; the tokens it gave are revoked")
    }
    if (row.clientId !== clientId) return yield* invalidGrant("The code was issued to another client")
    if (Date.parse(row.codeExpiresAt) <= now) return yield* invalidGrant("The code has expired; sign in again")
    if (form["redirect_uri"] !== undefined && form["redirect_uri"] !== row.redirectUri) {
      return yield* invalidGrant("redirect_uri is not the one of the authorization request")
    }
    if (!Rules.verifierMatches(form["code_verifier"] ?? "", row.codeChallenge)) {
      return yield* invalidGrant("code_verifier does not match the code_challenge (PKCE, S256)")
    }
    yield* resourceMatches(form, row.resource)
    const grantId = yield* Ids.make("grt")
    return yield* Effect.gen(function*() {
      yield* sql`
        INSERT INTO oauth_grants (id, client_id, workspace_id, member_id, resource, scopes, publishes_directly)
        SELECT ${grantId}, ${clientId}, workspace_id, id, ${row.resource}, ${JSON.stringify(row.scopes)}::jsonb, ${row.publishesDirectly}
        FROM members WHERE id = ${row.memberId}`
      // Claimed once: of two requests racing with one code, the second finds it used.
      const claimed = yield* sql`UPDATE oauth_requests SET grant_id = ${grantId} WHERE id = ${row.id} AND grant_id IS NULL RETURNING id`
      if (claimed.length === 0) return yield* invalidGrant("The code was already used")
      return yield* issue(grantId, row.scopes)
    }).pipe(sql.withTransaction)
  })

  const refresh = Effect.fnUntraced(function*(form: Form, clientId: string) {
    const token = form["refresh_token"]
    if (token === undefined) return yield* new OAuthRefused({ error: "invalid_request", description: "refresh_token is missing" })
    const now = yield* Clock.currentTimeMillis
    const hash = Rules.digest(token)
    const found = yield* dieOnBadRow(refreshOf(hash))
    if (Option.isNone(found)) return yield* invalidGrant("The refresh token is unknown")
    const row = found.value
    if (row.clientId !== clientId) return yield* invalidGrant("The refresh token was issued to another client")
    if (row.revokedAt !== null) return yield* invalidGrant("This assistant was disconnected; sign in again")
    const reused = invalidGrant("The refresh token was already used, so this assistant was disconnected; sign in again")
    if (row.usedAt !== null) return yield* Effect.andThen(endGrant(row.grantId), Effect.fail(reused))
    if (Date.parse(row.expiresAt) <= now) return yield* invalidGrant("The refresh token has expired; sign in again")
    yield* resourceMatches(form, row.resource)
    const claimed = yield* sql`UPDATE oauth_tokens SET used_at = ${new Date(now)} WHERE hash = ${hash} AND used_at IS NULL RETURNING hash`
    if (claimed.length === 0) return yield* Effect.andThen(endGrant(row.grantId), Effect.fail(reused))
    return yield* issue(row.grantId, row.scopes)
  })

  const token = Effect.fn("OAuth.token")(function*(form: Form) {
    const grantType = form["grant_type"]
    if (grantType === undefined) return yield* new OAuthRefused({ error: "invalid_request", description: "grant_type is missing" })
    if (grantType !== "authorization_code" && grantType !== "refresh_token") {
      return yield* new OAuthRefused({
        error: "unsupported_grant_type",
        description: "grant_type must be authorization_code or refresh_token"
      })
    }
    const clientId = form["client_id"]
    if (clientId === undefined) return yield* new OAuthRefused({ error: "invalid_request", description: "client_id is missing" })
    const client = yield* dieOnBadRow(clientOf(clientId))
    if (Option.isNone(client)) return yield* new OAuthRefused({ error: "invalid_client", description: "This client is not registered" })
    return yield* grantType === "authorization_code" ? exchange(form, client.value.id) : refresh(form, client.value.id)
  })

  /** RFC 7009: either token ends its grant (an assistant signing out means all of it); unknown ones are ignored. */
  const revoke = Effect.fn("OAuth.revoke")(function*(token: string) {
    const row = yield* dieOnBadRow(grantOf(Rules.digest(token)))
    if (Option.isSome(row)) yield* endGrant(row.value.grantId)
  })

  const touch = (grantId: string, now: number) =>
    sql`UPDATE oauth_grants SET last_used_at = ${new Date(now)} WHERE id = ${grantId}`.pipe(
      Effect.catchCause((cause) => Effect.logWarning("Could not record a grant's last use", cause)),
      Effect.forkDetach
    )

  const authenticate = Effect.fn("OAuth.authenticate")(function*(accessToken: string) {
    if (!accessToken.startsWith(Rules.accessPrefix)) return yield* new TokenRefused({ reason: "unknown" })
    const now = yield* Clock.currentTimeMillis
    const found = yield* dieOnBadRow(accessOf(Rules.digest(accessToken)))
    if (Option.isNone(found)) return yield* new TokenRefused({ reason: "unknown" })
    const row = found.value
    if (row.revokedAt !== null) return yield* new TokenRefused({ reason: "revoked" })
    if (Date.parse(row.expiresAt) <= now) return yield* new TokenRefused({ reason: "expired" })
    if (row.lastUsedAt === null || now - Date.parse(row.lastUsedAt) >= Duration.toMillis(touchEvery)) yield* touch(row.grantId, now)
    return {
      workspaceId: row.workspaceId,
      grantId: row.grantId,
      memberId: row.memberId,
      role: row.role,
      publishesDirectly: row.publishesDirectly
    } satisfies Principal
  })

  return { token, revoke, authenticate }
})
