import { Schema } from "effect"
import { InvitationId, MemberId, WorkspaceId } from "./Ids.ts"

export const Role = Schema.Literals(["owner", "admin", "editor", "viewer"])
export type Role = typeof Role.Type

export class Workspace extends Schema.Class<Workspace>("Workspace")({
  id: WorkspaceId,
  name: Schema.String,
  /** Posts by editors' keys wait for an owner's or admin's approval before they are scheduled. */
  approvalRequired: Schema.Boolean,
  assistantApproval: Schema.Boolean.annotate({
    description: "Posts that assistants connected by OAuth create or schedule wait for an owner's or admin's approval, " +
      "unless the member who connected one let it publish directly (on by default; API keys are not affected)"
  }),
  timeZone: Schema.String.annotate({
    description: "The workspace's time zone, an IANA name such as `Europe/Paris`; `UTC` until set"
  }),
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
