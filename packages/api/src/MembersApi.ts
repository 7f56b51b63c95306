import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Bounded, Workspace } from "@herald/domain"
import { ConflictResponse, ForbiddenResponse, InvalidResponse, NotFoundResponse } from "./ApiError.ts"
import { Data } from "./Envelope.ts"

const role = Bounded.Word.annotate({ description: `One of ${Workspace.Role.literals.join(", ")}` })

/** `POST /api/v1/members/invitations`. */
export const Invite = Schema.Struct({
  email: Bounded.Email.annotate({ description: "The address the invitation is sent to" }),
  role: role
})

/** `PATCH /api/v1/members/:id`. */
export const ChangeRole = Schema.Struct({ role })

export class Removed extends Schema.Class<Removed>("Removed")({ id: Schema.String, removed: Schema.Literal(true) }) {}
export class Revoked extends Schema.Class<Revoked>("Revoked")({ id: Schema.String, revoked: Schema.Literal(true) }) {}

export class MembersApi extends HttpApiGroup.make("members").add(
  HttpApiEndpoint.get("list", "/members", {
    success: Data(Schema.Array(Workspace.Member))
  }).annotate(OpenApi.Summary, "The workspace's members and their roles"),
  HttpApiEndpoint.post("invite", "/members/invitations", {
    payload: Invite,
    success: Data(Workspace.Invitation),
    error: [InvalidResponse, ConflictResponse, ForbiddenResponse]
  }).annotate(OpenApi.Summary, "Invite an address with a role: answers the signed link (valid 7 days), also e-mailed"),
  HttpApiEndpoint.get("invitations", "/members/invitations", {
    success: Data(Schema.Array(Workspace.Invitation)),
    error: ForbiddenResponse
  }).annotate(OpenApi.Summary, "The invitations not yet accepted, withdrawn or expired"),
  HttpApiEndpoint.delete("revokeInvitation", "/members/invitations/:id", {
    params: { id: Bounded.Id },
    success: Data(Revoked),
    error: [NotFoundResponse, ConflictResponse, ForbiddenResponse]
  }).annotate(OpenApi.Summary, "Withdraw an invitation: its link stops working"),
  HttpApiEndpoint.patch("changeRole", "/members/:id", {
    params: { id: Bounded.Id },
    payload: ChangeRole,
    success: Data(Workspace.Member),
    error: [InvalidResponse, NotFoundResponse, ConflictResponse, ForbiddenResponse]
  }).annotate(OpenApi.Summary, "Change a member's role; the only owner stays owner"),
  HttpApiEndpoint.delete("remove", "/members/:id", {
    params: { id: Bounded.Id },
    success: Data(Removed),
    error: [NotFoundResponse, ConflictResponse, ForbiddenResponse]
  }).annotate(OpenApi.Summary, "Remove a member; the only owner cannot be removed")
).annotateMerge(OpenApi.annotations({
  title: "Members",
  description: "The workspace's team: members with a role, and invitations by e-mail. Everyone reads the members; " +
    "owners, admins and workspace keys manage the team, never granting or touching a role above their own."
})) {}

/**
 * `GET /invitations/:token`: an invitation link sent before the console; it now ends on the console's
 * invitation page (`303` to `/app/invitation#<token>`), where the person accepts it.
 */
export class InvitationsApi extends HttpApiGroup.make("invitations", { topLevel: true }).add(
  HttpApiEndpoint.get("accept", "/invitations/:token", {
    params: { token: Bounded.Secret },
    success: HttpApiSchema.Empty(303)
  }).annotate(OpenApi.Summary, "An older invitation link: redirects to the console's invitation page")
).annotateMerge(OpenApi.annotations({
  title: "Invitations",
  description: "Invitation links opened in a browser, redirected to the console (`/app/invitation`)."
})) {}
