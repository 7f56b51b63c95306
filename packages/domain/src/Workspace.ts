import { Schema } from "effect"
import { MemberId, WorkspaceId } from "./Ids.ts"

export const Role = Schema.Literals(["owner", "admin", "editor", "viewer"])
export type Role = typeof Role.Type

export class Workspace extends Schema.Class<Workspace>("Workspace")({
  id: WorkspaceId,
  name: Schema.String,
  createdAt: Schema.String
}) {}

export class Member extends Schema.Class<Member>("Member")({
  id: MemberId,
  workspaceId: WorkspaceId,
  email: Schema.String,
  role: Role,
  createdAt: Schema.String
}) {}
