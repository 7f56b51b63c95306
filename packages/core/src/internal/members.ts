import { Schema } from "effect"
import { Ids as DomainIds, Workspace } from "@herald/domain"
import { iso, Timestamp } from "./rows.ts"

/** A `members` row as read with `memberColumns`. */
export interface MemberRow {
  readonly id: string
  readonly workspaceId: string
  readonly email: string
  readonly role: Workspace.Role
  readonly createdAt: Date | string
}

/** A `members` row as `memberColumns` reads it, decoded rather than asserted (`SqlSchema`; a row unlike it dies). */
export const MemberRowSchema = Schema.Struct({
  id: DomainIds.MemberId,
  workspaceId: DomainIds.WorkspaceId,
  email: Schema.String,
  role: Workspace.Role,
  createdAt: Timestamp
})

export const memberColumns = "id, workspace_id, email, role, created_at"

/** A member from its row, decoded (`MemberRowSchema`) or, where a statement still asserts it, as read. */
export const toMember = (row: MemberRow | typeof MemberRowSchema.Type) =>
  new Workspace.Member({
    id: DomainIds.MemberId.make(row.id),
    workspaceId: DomainIds.WorkspaceId.make(row.workspaceId),
    email: row.email,
    role: row.role,
    createdAt: iso(row.createdAt)
  })
