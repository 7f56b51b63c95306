import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Bounded, Workspace } from "@herald/domain"
import { ForbiddenResponse, InvalidResponse } from "./ApiError.ts"
import { Data } from "./Envelope.ts"

/** `PATCH /api/v1/workspace`: only what is sent changes. */
export const UpdateWorkspace = Schema.Struct({
  name: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)).annotate({
    description: "The workspace's name"
  })),
  approvalRequired: Schema.optionalKey(Schema.Boolean.annotate({
    description: "Posts scheduled by editors' keys wait for an owner's or admin's approval"
  })),
  assistantApproval: Schema.optionalKey(Schema.Boolean.annotate({
    description: "Posts that assistants connected by OAuth create or schedule wait for an owner's or admin's approval, " +
      "unless the member who connected one let it publish directly"
  })),
  timeZone: Schema.optionalKey(Bounded.Word.annotate({
    description: "The workspace's time zone, an IANA name such as `Europe/Paris` (`UTC` by default)"
  }))
})

export class WorkspaceApi extends HttpApiGroup.make("workspace").add(
  HttpApiEndpoint.get("get", "/workspace", {
    success: Data(Workspace.Workspace)
  }).annotate(OpenApi.Summary, "The key's workspace and its settings"),
  HttpApiEndpoint.patch("update", "/workspace", {
    payload: UpdateWorkspace,
    success: Data(Workspace.Workspace),
    error: [ForbiddenResponse, InvalidResponse]
  }).annotate(OpenApi.Summary, "Change the workspace's settings (owners, admins and workspace keys)")
).annotateMerge(OpenApi.annotations({
  title: "Workspace",
  description: "The key's workspace: its name, whether posts (and assistants' posts) need approval, and its time zone."
})) {}
