import { Schema } from "effect"
import { Ids as DomainIds, Workspace } from "@herald/domain"
import { Timestamp } from "./rows.ts"

/** A `members` row as `memberColumns` reads it, decoded rather than asserted (`SqlSchema`; a row unlike it dies). */
export const MemberRow = Schema.Struct({
  id: DomainIds.MemberId,
  workspaceId: DomainIds.WorkspaceId,
  email: Schema.String,
  role: Workspace.Role,
  createdAt: Timestamp
})

export const memberColumns = "id, workspace_id, email, role, created_at"

/** A member from its decoded row: the row's fields are the member's. */
export const toMember = (row: typeof MemberRow.Type) => new Workspace.Member(row)
