import { Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import { Ids as DomainIds, Workspace } from "@herald/domain"
import { memberColumns, MemberRow } from "./members.ts"
import { Timestamp } from "./rows.ts"

// Team's statements, each with the schema its rows are decoded by (decision 0087).

/** An `invitations` row as `invitationColumns` reads it, decoded rather than asserted (a row unlike it dies). */
export const InvitationRow = Schema.Struct({
  id: DomainIds.InvitationId,
  workspaceId: Schema.String,
  email: Schema.String,
  role: Workspace.Role,
  expiresAt: Timestamp,
  createdAt: Timestamp,
  acceptedAt: Schema.NullOr(Timestamp),
  revokedAt: Schema.NullOr(Timestamp)
})
export type InvitationRow = typeof InvitationRow.Type

const invitationColumns = "id, workspace_id, email, role, expires_at, created_at, accepted_at, revoked_at"

/** A member's id, where only whether there is one (and which) matters. */
const IdRow = Schema.Struct({ id: Schema.String })

/** Team's statements on `sql`, built once by its layer. */
export const teamStatements = (sql: SqlClient.SqlClient) => ({
  membersOf: SqlSchema.findAll({
    Request: Schema.String,
    Result: MemberRow,
    execute: (workspaceId) =>
      sql`SELECT ${sql.literal(memberColumns)} FROM members WHERE workspace_id = ${workspaceId} ORDER BY created_at, id`
  }),
  memberById: SqlSchema.findOneOption({
    Request: Schema.String,
    Result: MemberRow,
    execute: (memberId) => sql`SELECT ${sql.literal(memberColumns)} FROM members WHERE id = ${memberId}`
  }),
  memberByEmail: SqlSchema.findOneOption({
    Request: Schema.Struct({ workspaceId: Schema.String, email: Schema.String }),
    Result: IdRow,
    execute: ({ email, workspaceId }) => sql`
            SELECT id FROM members WHERE workspace_id = ${workspaceId} AND email = ${email}`
  }),
  invitationCreated: SqlSchema.findOne({
    Request: Schema.Struct({
      id: Schema.String,
      workspaceId: Schema.String,
      email: Schema.String,
      role: Workspace.Role,
      expiresAt: Schema.Date,
      createdAt: Schema.Date
    }),
    Result: InvitationRow,
    execute: (input) => sql`
            INSERT INTO invitations (id, workspace_id, email, role, expires_at, created_at)
            VALUES (${input.id}, ${input.workspaceId}, ${input.email}, ${input.role}, ${input.expiresAt}, ${input.createdAt})
            RETURNING ${sql.literal(invitationColumns)}`
  }),
  workspaceName: SqlSchema.findOneOption({
    Request: Schema.String,
    Result: Schema.Struct({ name: Schema.String }),
    execute: (workspaceId) => sql`SELECT name FROM workspaces WHERE id = ${workspaceId}`
  }),
  openInvitations: SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: Schema.String, now: Schema.Date }),
    Result: InvitationRow,
    execute: ({ now, workspaceId }) => sql`
              SELECT ${sql.literal(invitationColumns)} FROM invitations
              WHERE workspace_id = ${workspaceId} AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > ${now}
              ORDER BY created_at, id`
  }),
  invitationIn: SqlSchema.findOneOption({
    Request: Schema.Struct({ workspaceId: Schema.String, invitationId: Schema.String }),
    Result: InvitationRow,
    execute: ({ invitationId, workspaceId }) => sql`
          SELECT ${sql.literal(invitationColumns)} FROM invitations WHERE id = ${invitationId} AND workspace_id = ${workspaceId}`
  }),
  invitationById: SqlSchema.findOneOption({
    Request: Schema.String,
    Result: InvitationRow,
    execute: (id) => sql`SELECT ${sql.literal(invitationColumns)} FROM invitations WHERE id = ${id}`
  }),
  invitationLocked: SqlSchema.findOneOption({
    Request: Schema.String,
    Result: InvitationRow,
    execute: (id) => sql`
            SELECT ${sql.literal(invitationColumns)} FROM invitations WHERE id = ${id} FOR UPDATE`
  }),
  memberCreated: SqlSchema.findOne({
    Request: Schema.Struct({ id: Schema.String, workspaceId: Schema.String, email: Schema.String, role: Workspace.Role }),
    Result: MemberRow,
    execute: ({ email, id, role, workspaceId }) => sql`
            INSERT INTO members (id, workspace_id, email, role) VALUES (${id}, ${workspaceId}, ${email}, ${role})
            RETURNING ${sql.literal(memberColumns)}`
  }),
  membersLocked: SqlSchema.findAll({
    Request: Schema.String,
    Result: MemberRow,
    execute: (workspaceId) => sql`
          SELECT ${sql.literal(memberColumns)} FROM members WHERE workspace_id = ${workspaceId} ORDER BY id FOR UPDATE`
  }),
  roleChanged: SqlSchema.findOne({
    Request: Schema.Struct({ id: Schema.String, role: Workspace.Role }),
    Result: MemberRow,
    execute: ({ id, role }) => sql`
            UPDATE members SET role = ${role} WHERE id = ${id} RETURNING ${sql.literal(memberColumns)}`
  })
})
