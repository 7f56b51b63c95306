import { Schema } from "effect"
import { InvitationId, MemberId, WorkspaceId } from "./Ids.ts"

export const Role = Schema.Literals(["owner", "admin", "editor", "viewer"])
export type Role = typeof Role.Type

export class Workspace extends Schema.Class<Workspace>("Workspace")({
  id: WorkspaceId,
  name: Schema.String,
  /** Posts by editors' keys wait for an owner's or admin's approval before they are scheduled. */
  approvalRequired: Schema.Boolean,
  createdAt: Schema.String
}) {}

export class Member extends Schema.Class<Member>("Member")({
  id: MemberId,
  workspaceId: WorkspaceId,
  email: Schema.String,
  role: Role,
  createdAt: Schema.String
}) {}

/** An invitation to join a workspace; `url` is the signed link that accepts it, valid until `expiresAt`. */
export class Invitation extends Schema.Class<Invitation>("Invitation")({
  id: InvitationId,
  email: Schema.String,
  role: Role,
  url: Schema.String,
  expiresAt: Schema.String,
  createdAt: Schema.String
}) {}
