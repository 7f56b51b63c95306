import { Clock, Context, Duration, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { Ids as DomainIds, type Workspace } from "@herald/domain"
import * as DieOnSql from "./internal/dieOnSql.ts"
import * as Ids from "./Ids.ts"
import { dieOnBadRow, iso } from "./internal/rows.ts"
import { type SessionRow, sessionStatements } from "./internal/sessionRows.ts"
import { type LinkPurpose, LinkRefused, linkLifetimes, makeLinks } from "./internal/signInLinks.ts"
import * as Tokens from "./internal/tokens.ts"
import type { Mail } from "./Notifier.ts"
import { type Membership, People, type Person } from "./People.ts"
import { PublicUrl } from "./PublicUrl.ts"

/**
 * Console sessions and one-time sign-in links (decision 0021). A session lives 14 days from its last use
 * (touched at most every 5 minutes) and at most 60 days from sign-in; it is read from the database on every
 * request, so a revoked one is refused at once by every process. Only SHA-256 digests of tokens are stored.
 */

export const idleLifetime = Duration.days(14)
export const absoluteLifetime = Duration.days(60)
const touchEvery = Duration.minutes(5)
/** After signing in through a link, a password may be set without the current one for this long. */
const linkGrace = Duration.minutes(30)

export { type LinkPurpose, LinkRefused, linkLifetimes }

export class SessionRefused extends Schema.TaggedError<SessionRefused>()("SessionRefused", {}) {
  override get message() {
    return "Not signed in, or the session has ended: sign in again"
  }
}

export class NotAMember extends Schema.TaggedError<NotAMember>()("NotAMember", { workspaceId: Schema.String }) {
  override get message() {
    return `No such member in workspace ${this.workspaceId}`
  }
}

export class SessionNotFound extends Schema.TaggedError<SessionNotFound>()("SessionNotFound", { sessionId: Schema.String }) {
  override get message() {
    return `Session ${this.sessionId} does not exist`
  }
}

/** Who a session acts as: the person's member in the session's current workspace. */
export interface Principal {
  readonly sessionId: DomainIds.SessionId
  readonly personId: DomainIds.PersonId
  readonly workspaceId: DomainIds.WorkspaceId
  readonly memberId: DomainIds.MemberId
  readonly role: Workspace.Role
  readonly csrfToken: string
  /** Seconds the session lives from now, for the cookie's Max-Age. */
  readonly maxAgeSeconds: number
}

export interface Described {
  readonly person: Person
  readonly workspace: Membership
  readonly workspaces: ReadonlyArray<Membership>
  readonly csrfToken: string
  readonly expiresAt: string
  readonly mustSetPassword: boolean
}

export interface Listed {
  readonly id: DomainIds.SessionId
  readonly createdAt: string
  readonly lastUsedAt: string
  readonly expiresAt: string
  readonly userAgent: string | null
  readonly address: string | null
  readonly current: boolean
}

export interface Client {
  readonly userAgent: string | null
  readonly address: string | null
}

export class Sessions extends Context.Service<Sessions, {
  /** Starts a session in a workspace the person is a member of; answers the cookie's token. */
  start(input: {
    readonly personId: string
    readonly workspaceId: string
    readonly via: "password" | "link"
    readonly mustSetPassword: boolean
    readonly client: Client
  }): Effect.Effect<{ readonly token: string; readonly principal: Principal }, NotAMember>
  authenticate(token: string): Effect.Effect<Principal, SessionRefused>
  describe(sessionId: string): Effect.Effect<Described, SessionRefused>
  switchWorkspace(sessionId: string, workspaceId: string): Effect.Effect<void, NotAMember>
  revoke(sessionId: string): Effect.Effect<void>
  list(personId: string, currentId: string): Effect.Effect<ReadonlyArray<Listed>>
  revokeOwn(personId: string, sessionId: string): Effect.Effect<void, SessionNotFound>
  /** After a password change: every other session of the person ends; this one needs no new password. */
  passwordChanged(personId: string, keepSessionId: string): Effect.Effect<void>
  /** Whether a password may be set without the current one (within 30 minutes of signing in by link). */
  withinLinkGrace(sessionId: string): Effect.Effect<boolean>
  /** A one-time link `{BASE_URL}/app/link#<token>`. */
  issueLink(personId: string, workspaceId: string, purpose: LinkPurpose): Effect.Effect<
    { readonly url: string; readonly expiresAt: string }
  >
  /**
   * The password-reset mail for an address, with a new reset link. Mailed to the address, so it may lead to
   * any of its workspaces (using it verifies the address). None when the address has no person, or the
   * person no workspace.
   */
  resetMail(email: string): Effect.Effect<Option.Option<Mail>>
  /** The operator's sign-in link (24 h) for a workspace's member, by e-mail. */
  loginLink(workspaceId: string, email: string): Effect.Effect<
    { readonly url: string; readonly expiresAt: string },
    NotAMember
  >
  /**
   * Uses a one-time link up. A link reaches only its address (mailed) or the operator (printed), so the
   * person's address is verified by it; a password set before that, by whoever held an invitation link, is
   * dropped with every session of the person (`passwordDropped`: the new session must set one).
   */
  consumeLink(token: string): Effect.Effect<
    { readonly personId: string; readonly workspaceId: string; readonly purpose: LinkPurpose; readonly passwordDropped: boolean },
    LinkRefused
  >
}>()("@herald/core/Sessions") {
  static readonly layer = Layer.effect(
    Sessions,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const people = yield* People
      const publicUrl = yield* PublicUrl
      const statements = sessionStatements(sql)

      const membership = (personId: string, workspaceId: string) =>
        Effect.map(people.memberships(personId), (all) => Option.fromNullishOr(all.find((one) => one.id === workspaceId)))

      const principalOf = (row: SessionRow, member: Membership, now: number): Principal => ({
        sessionId: row.id,
        personId: row.personId,
        workspaceId: member.id,
        memberId: member.memberId,
        role: member.role,
        csrfToken: row.csrfToken,
        maxAgeSeconds: Math.max(0, Math.floor((Date.parse(row.expiresAt) - now) / 1000))
      })

      const start = Effect.fn("Sessions.start")(function*(input: Parameters<Sessions["Service"]["start"]>[0]) {
        const member = yield* membership(input.personId, input.workspaceId)
        if (Option.isNone(member)) return yield* new NotAMember({ workspaceId: input.workspaceId })
        const now = yield* Clock.currentTimeMillis
        const id = yield* Ids.make(DomainIds.prefixes.session)
        const token = Tokens.make()
        const row = yield* Effect.orDie(statements.inserted({
          id,
          personId: input.personId,
          tokenHash: Tokens.digest(token),
          csrfToken: Tokens.make(),
          workspaceId: input.workspaceId,
          now: new Date(now),
          expiresAt: new Date(now + Duration.toMillis(idleLifetime)),
          absoluteExpiresAt: new Date(now + Duration.toMillis(absoluteLifetime)),
          userAgent: input.client.userAgent?.slice(0, 500) ?? null,
          address: input.client.address,
          via: input.via,
          mustSetPassword: input.mustSetPassword
        }))
        return { token, principal: principalOf(row, member.value, now) }
      })

      const live = (row: SessionRow | undefined, now: number): row is SessionRow =>
        row !== undefined && row.revokedAt === null && Date.parse(row.expiresAt) > now

      const authenticate = Effect.fn("Sessions.authenticate")(function*(token: string) {
        const now = yield* Clock.currentTimeMillis
        const row = Option.getOrUndefined(yield* dieOnBadRow(statements.byTokenHash(Tokens.digest(token))))
        if (!live(row, now)) return yield* new SessionRefused()
        const member = yield* membership(row.personId, row.workspaceId)
        if (Option.isNone(member)) return yield* new SessionRefused()
        if (now - Date.parse(row.lastUsedAt) < Duration.toMillis(touchEvery)) return principalOf(row, member.value, now)
        const expiresAt = new Date(Math.min(now + Duration.toMillis(idleLifetime), Date.parse(row.absoluteExpiresAt)))
        yield* sql`UPDATE sessions SET last_used_at = ${new Date(now)}, expires_at = ${expiresAt} WHERE id = ${row.id}`
        return principalOf({ ...row, expiresAt: iso(expiresAt) }, member.value, now)
      })

      const describe = Effect.fn("Sessions.describe")(function*(sessionId: string) {
        const now = yield* Clock.currentTimeMillis
        const row = Option.getOrUndefined(yield* dieOnBadRow(statements.byId(sessionId)))
        if (!live(row, now)) return yield* new SessionRefused()
        const person = yield* people.get(row.personId)
        const workspaces = yield* people.memberships(row.personId)
        const workspace = workspaces.find((one) => one.id === row.workspaceId)
        if (workspace === undefined) return yield* new SessionRefused()
        return {
          person,
          workspace,
          workspaces,
          csrfToken: row.csrfToken,
          expiresAt: row.expiresAt,
          mustSetPassword: row.mustSetPassword || !person.hasPassword
        }
      })

      const switchWorkspace = Effect.fn("Sessions.switchWorkspace")(function*(sessionId: string, workspaceId: string) {
        const row = yield* dieOnBadRow(statements.personOf(sessionId))
        const member = Option.isNone(row) ? Option.none() : yield* membership(row.value.personId, workspaceId)
        if (Option.isNone(member)) return yield* new NotAMember({ workspaceId })
        yield* sql`UPDATE sessions SET workspace_id = ${workspaceId} WHERE id = ${sessionId}`
      })

      const revoke = (sessionId: string) =>
        Effect.asVoid(sql`UPDATE sessions SET revoked_at = coalesce(revoked_at, now()) WHERE id = ${sessionId}`)

      const list = Effect.fn("Sessions.list")(function*(personId: string, currentId: string) {
        const now = yield* Clock.currentTimeMillis
        const rows = yield* dieOnBadRow(statements.liveOf({ personId, now: new Date(now) }))
        return rows.map((row): Listed => ({
          id: row.id,
          createdAt: row.createdAt,
          lastUsedAt: row.lastUsedAt,
          expiresAt: row.expiresAt,
          userAgent: row.userAgent,
          address: row.address,
          current: row.id === currentId
        }))
      })

      const revokeOwn = Effect.fn("Sessions.revokeOwn")(function*(personId: string, sessionId: string) {
        const revoked = yield* dieOnBadRow(statements.revokedOwn({ sessionId, personId }))
        if (Option.isNone(revoked)) return yield* new SessionNotFound({ sessionId })
      })

      const passwordChanged = (personId: string, keepSessionId: string) =>
        Effect.andThen(
          sql`UPDATE sessions SET revoked_at = now() WHERE person_id = ${personId} AND id <> ${keepSessionId} AND revoked_at IS NULL`,
          sql`UPDATE sessions SET must_set_password = false WHERE id = ${keepSessionId}`
        ).pipe(Effect.asVoid)

      const withinLinkGrace = Effect.fn("Sessions.withinLinkGrace")(function*(sessionId: string) {
        const now = yield* Clock.currentTimeMillis
        const row = Option.getOrUndefined(yield* dieOnBadRow(statements.byId(sessionId)))
        return row !== undefined && row.via === "link" && now - Date.parse(row.createdAt) < Duration.toMillis(linkGrace)
      })

      const { consumeLink, issueLink, resetMail } = makeLinks(sql, people, publicUrl)

      const loginLink = Effect.fn("Sessions.loginLink")(function*(workspaceId: string, email: string) {
        const member = yield* dieOnBadRow(statements.memberEmail({ workspaceId, email: email.trim().toLowerCase() }))
        if (Option.isNone(member)) return yield* new NotAMember({ workspaceId })
        const person = yield* people.ensure(member.value.email)
        return yield* issueLink(person.id, workspaceId, "sign_in")
      })

      return Sessions.of(DieOnSql.service({
        start,
        authenticate,
        describe,
        switchWorkspace,
        revoke,
        list,
        revokeOwn,
        passwordChanged,
        withinLinkGrace,
        issueLink,
        resetMail,
        loginLink,
        consumeLink
      }))
    })
  )
}
