import { Clock, Context, Duration, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { EmailAddress, Ids as DomainIds, Workspace } from "@herald/domain"
import * as DieOnSql from "./internal/dieOnSql.ts"
import { ApiKeys } from "./ApiKeys.ts"
import * as Events from "./Events.ts"
import * as Ids from "./Ids.ts"
import { toMember } from "./internal/members.ts"
import { dieOnBadRow } from "./internal/rows.ts"
import { type InvitationRow, teamStatements } from "./internal/teamRows.ts"
import { Notifier } from "./Notifier.ts"
import { PublicUrl } from "./PublicUrl.ts"
import { type LinkRefused, SignedLinks } from "./SignedLinks.ts"
import { findWorkspace } from "./Workspaces.ts"

/**
 * A workspace's team: members with roles (`owner`, `admin`, `editor`, `viewer`), and invitations by e-mail
 * whose signed link, opened, makes the person a member (`member.joined`). A workspace always keeps at least
 * one owner.
 */

export class MemberNotFound extends Schema.TaggedError<MemberNotFound>()("MemberNotFound", { memberId: Schema.String }) {
  override get message() {
    return `Member ${this.memberId} does not exist`
  }
}

export class InvitationNotFound extends Schema.TaggedError<InvitationNotFound>()("InvitationNotFound", {
  invitationId: Schema.String
}) {
  override get message() {
    return `Invitation ${this.invitationId} does not exist`
  }
}

export class TeamInvalid extends Schema.TaggedError<TeamInvalid>()("TeamInvalid", {
  problems: Schema.Array(Schema.Struct({ field: Schema.String, message: Schema.String }))
}) {
  override get message() {
    return this.problems.map((problem) => problem.message).join("; ")
  }
}

export class TeamConflict extends Schema.TaggedError<TeamConflict>()("TeamConflict", { message: Schema.String }) {}

/** An invitation link that cannot be used: the link itself, or what it points at. */
export class InvitationRefused extends Schema.TaggedError<InvitationRefused>()("InvitationRefused", {
  message: Schema.String
}) {}

/** How long an invitation link works. */
export const invitationLifetime = Duration.days(7)

const purpose = "invitation"

export class Team extends Context.Service<Team, {
  members(workspaceId: string): Effect.Effect<ReadonlyArray<Workspace.Member>>
  /** One member, whatever its workspace (the operator's commands name members by id alone). */
  member(memberId: string): Effect.Effect<Workspace.Member, MemberNotFound>
  /** Invites an address with a role; the answer carries the signed link, also e-mailed to the address. */
  invite(workspaceId: string, input: { readonly email: string; readonly role: string }): Effect.Effect<
    Workspace.Invitation,
    TeamInvalid | TeamConflict
  >
  /** The invitations not yet accepted, revoked or expired. */
  invitations(workspaceId: string): Effect.Effect<ReadonlyArray<Workspace.Invitation>>
  revokeInvitation(workspaceId: string, invitationId: string): Effect.Effect<void, InvitationNotFound | TeamConflict>
  /** What an invitation link is for, checked as `accept` checks it, without accepting it. */
  preview(token: string): Effect.Effect<
    { readonly workspace: Workspace.Workspace; readonly email: string; readonly role: Workspace.Role; readonly expiresAt: string },
    InvitationRefused
  >
  /**
   * Opens an invitation link for the person with its address (`personId`), who becomes a member
   * (`member.joined`) and reaches the workspace even before their address is verified.
   */
  accept(token: string, personId: string): Effect.Effect<
    { readonly member: Workspace.Member; readonly workspace: Workspace.Workspace },
    InvitationRefused
  >
  changeRole(workspaceId: string, memberId: string, role: string): Effect.Effect<
    Workspace.Member,
    MemberNotFound | TeamInvalid | TeamConflict
  >
  remove(workspaceId: string, memberId: string): Effect.Effect<void, MemberNotFound | TeamConflict>
}>()("@herald/core/Team") {
  static readonly layer = Layer.effect(
    Team,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const statements = teamStatements(sql)
      const workspaceById = findWorkspace(sql)
      // An invitation's workspace goes with it (ON DELETE CASCADE): one read beside it is there.
      const workspaceOf = (id: string) =>
        Effect.flatMap(workspaceById(id), Option.match({
          onNone: () => Effect.die(new Error(`The workspace ${id} of an invitation is gone`)),
          onSome: Effect.succeed
        }))
      const links = yield* SignedLinks
      const notifier = yield* Notifier
      const publicUrl = yield* PublicUrl
      const apiKeys = yield* ApiKeys

      // The console's invitation page; the token rides in the fragment, so it never reaches a log or a Referer.
      const urlOf = (row: InvitationRow) => `${publicUrl}/app/invitation#${links.sign(purpose, row.id, new Date(row.expiresAt))}`
      const toInvitation = (row: InvitationRow) =>
        new Workspace.Invitation({
          id: row.id,
          email: row.email,
          role: row.role,
          url: urlOf(row),
          expiresAt: row.expiresAt,
          createdAt: row.createdAt
        })

      const roleOf = (value: string, problems: Array<{ field: string; message: string }>) => {
        if (Workspace.Role.literals.includes(value as Workspace.Role)) return value as Workspace.Role
        problems.push({ field: "role", message: `role "${value}" is not one of ${Workspace.Role.literals.join(", ")}` })
        return undefined
      }

      const members = (workspaceId: string) =>
        Effect.map(dieOnBadRow(statements.membersOf(workspaceId)), (rows) => rows.map(toMember))

      const member = Effect.fn("Team.member")(function*(memberId: string) {
        const row = yield* dieOnBadRow(statements.memberById(memberId))
        if (Option.isNone(row)) return yield* new MemberNotFound({ memberId })
        return toMember(row.value)
      })

      const invite = Effect.fn("Team.invite")(function*(workspaceId: string, input: { readonly email: string; readonly role: string }) {
        const problems: Array<{ field: string; message: string }> = []
        const address = input.email.trim().toLowerCase()
        const wrong = EmailAddress.problem(address)
        if (wrong !== undefined) problems.push({ field: "email", message: `email ${EmailAddress.quoted(input.email)} ${wrong}` })
        const role = roleOf(input.role, problems)
        if (problems.length > 0 || role === undefined) return yield* new TeamInvalid({ problems })
        const now = yield* Clock.currentTimeMillis
        const id = yield* Ids.make(DomainIds.prefixes.invitation)
        const expiresAt = new Date(now + Duration.toMillis(invitationLifetime))
        const row = yield* sql.withTransaction(Effect.gen(function*() {
          const already = yield* dieOnBadRow(statements.memberByEmail({ workspaceId, email: address }))
          if (Option.isSome(already)) {
            return yield* new TeamConflict({ message: `${address} is already a member of this workspace (${already.value.id})` })
          }
          // One live invitation per address: a new one replaces those before it.
          yield* sql`
            UPDATE invitations SET revoked_at = now()
            WHERE workspace_id = ${workspaceId} AND email = ${address} AND accepted_at IS NULL AND revoked_at IS NULL`
          return yield* Effect.orDie(statements.invitationCreated({
            id,
            workspaceId,
            email: address,
            role,
            expiresAt,
            createdAt: new Date(now)
          }))
        }))
        const invitation = toInvitation(row)
        const workspace = Option.getOrUndefined(yield* dieOnBadRow(statements.workspaceName(workspaceId)))
        yield* notifier.send({
          to: [address],
          subject: `You are invited to ${workspace?.name ?? "a workspace"} on Herald`,
          text: [
            `You are invited to join the workspace "${workspace?.name ?? workspaceId}" on Herald as ${role}.`,
            ``,
            `Open this link to accept (it works until ${invitation.expiresAt}):`,
            invitation.url
          ].join("\n"),
          logged: "the invitation link is not logged: whoever invited was given it (the API's answer; herald member invite prints it)"
        })
        return invitation
      })

      const invitations = (workspaceId: string) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.map(
            dieOnBadRow(statements.openInvitations({ workspaceId, now: new Date(now) })),
            (rows) => rows.map(toInvitation)
          ))

      const revokeInvitation = Effect.fn("Team.revokeInvitation")(function*(workspaceId: string, invitationId: string) {
        const found = yield* dieOnBadRow(statements.invitationIn({ workspaceId, invitationId }))
        if (Option.isNone(found)) return yield* new InvitationNotFound({ invitationId })
        if (found.value.acceptedAt !== null) return yield* new TeamConflict({ message: `Invitation ${invitationId} was accepted already` })
        yield* sql`UPDATE invitations SET revoked_at = coalesce(revoked_at, now()) WHERE id = ${invitationId}`
      })

      const preview = Effect.fn("Team.preview")(function*(token: string) {
        const link = yield* Effect.mapError(links.verify(purpose, token), (refused: LinkRefused) =>
          new InvitationRefused({ message: refused.message }))
        const row = Option.getOrUndefined(yield* dieOnBadRow(statements.invitationById(link.id)))
        if (row === undefined || row.revokedAt !== null) {
          return yield* new InvitationRefused({ message: "This invitation was withdrawn: ask for a new one" })
        }
        if (row.acceptedAt !== null) return yield* new InvitationRefused({ message: "This invitation was used already" })
        const workspace = yield* workspaceOf(row.workspaceId)
        return { workspace, email: row.email, role: row.role, expiresAt: row.expiresAt }
      })

      const accept = Effect.fn("Team.accept")(function*(token: string, personId: string) {
        const link = yield* Effect.mapError(links.verify(purpose, token), (refused: LinkRefused) =>
          new InvitationRefused({ message: refused.message }))
        const memberId = yield* Ids.make(DomainIds.prefixes.member)
        return yield* sql.withTransaction(Effect.gen(function*() {
          const row = Option.getOrUndefined(yield* dieOnBadRow(statements.invitationLocked(link.id)))
          if (row === undefined || row.revokedAt !== null) {
            return yield* new InvitationRefused({ message: "This invitation was withdrawn: ask for a new one" })
          }
          if (row.acceptedAt !== null) return yield* new InvitationRefused({ message: "This invitation was used already" })
          const already = yield* dieOnBadRow(statements.memberByEmail({ workspaceId: row.workspaceId, email: row.email }))
          if (Option.isSome(already)) {
            return yield* new InvitationRefused({ message: `${row.email} is already a member of this workspace` })
          }
          const member = yield* Effect.orDie(statements.memberCreated({
            id: memberId,
            workspaceId: row.workspaceId,
            email: row.email,
            role: row.role
          }))
          yield* sql`UPDATE invitations SET accepted_at = now(), member_id = ${memberId}, accepted_by = ${personId} WHERE id = ${row.id}`
          yield* Events.record(sql, row.workspaceId, "member.joined", { memberId, email: row.email, role: row.role })
          const workspace = yield* workspaceOf(row.workspaceId)
          return { member: toMember(member), workspace }
        }))
      })

      /** Locks the workspace's members and checks that what is asked leaves it an owner. */
      const lockMember = Effect.fnUntraced(function*(workspaceId: string, memberId: string) {
        const rows = yield* dieOnBadRow(statements.membersLocked(workspaceId))
        const member = rows.find((row) => row.id === memberId)
        if (member === undefined) return yield* new MemberNotFound({ memberId })
        const owners = rows.filter((row) => row.role === "owner").length
        return { member, lastOwner: member.role === "owner" && owners === 1 }
      })

      const changeRole = Effect.fn("Team.changeRole")(function*(workspaceId: string, memberId: string, role: string) {
        const problems: Array<{ field: string; message: string }> = []
        const wanted = roleOf(role, problems)
        if (wanted === undefined) return yield* new TeamInvalid({ problems })
        return yield* sql.withTransaction(Effect.gen(function*() {
          const { lastOwner, member } = yield* lockMember(workspaceId, memberId)
          if (lastOwner && wanted !== "owner") {
            return yield* new TeamConflict({ message: `${member.email} is the workspace's only owner; make another member owner first` })
          }
          const updated = yield* Effect.orDie(statements.roleChanged({ id: memberId, role: wanted }))
          return toMember(updated)
        })).pipe(Effect.tap(() => apiKeys.forgetMember(memberId)))
      })

      const remove = Effect.fn("Team.remove")(function*(workspaceId: string, memberId: string) {
        // Before the keys go with the member: every process drops them from its cache now.
        yield* apiKeys.forgetMember(memberId)
        yield* sql.withTransaction(Effect.gen(function*() {
          const { lastOwner, member } = yield* lockMember(workspaceId, memberId)
          if (lastOwner) {
            return yield* new TeamConflict({ message: `${member.email} is the workspace's only owner and cannot be removed` })
          }
          yield* sql`DELETE FROM members WHERE id = ${memberId}`
        }))
      })

      return Team.of(DieOnSql.service({ members, member, invite, invitations, revokeInvitation, preview, accept, changeRole, remove }))
    })
  )
}
