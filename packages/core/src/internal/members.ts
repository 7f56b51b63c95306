import { Ids as DomainIds, Workspace } from "@herald/domain"
import { iso } from "./rows.ts"

/** A `members` row as read with `memberColumns`. */
export interface MemberRow {
  readonly id: string
  readonly workspaceId: string
  readonly email: string
  readonly role: Workspace.Role
  readonly createdAt: Date | string
}

export const memberColumns = "id, workspace_id, email, role, created_at"

export const toMember = (row: MemberRow) =>
  new Workspace.Member({
    id: DomainIds.MemberId.make(row.id),
    workspaceId: DomainIds.WorkspaceId.make(row.workspaceId),
    email: row.email,
    role: row.role,
    createdAt: iso(row.createdAt)
  })
