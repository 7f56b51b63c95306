import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { ApiError, Authorization, HeraldApi, MembersApi } from "@herald/api"
import { Team } from "@herald/core"
import { HttpServerResponse } from "effect/http"

const invalid = (error: Team.TeamInvalid) => Effect.fail(new ApiError.Invalid({ message: error.message, details: error.problems }))
const notFound = (error: { readonly message: string }) => Effect.fail(new ApiError.NotFound({ message: error.message }))
const conflict = (error: { readonly message: string }) => Effect.fail(new ApiError.Conflict({ message: error.message }))

const workspace = Effect.map(Effect.service(Authorization.CurrentPrincipal), (principal) => principal.workspaceId)

export const layer = HttpApiBuilder.group(
  HeraldApi.HeraldApi,
  "members",
  Effect.fnUntraced(function*(handlers) {
    const team = yield* Team.Team
    return handlers
      .handle("list", () =>
        Effect.flatMap(workspace, (workspaceId) => team.members(workspaceId)).pipe(
          Effect.map((data) => ({ data })),
          Effect.orDie
        ))
      .handle("invite", ({ payload }) =>
        Effect.flatMap(workspace, (workspaceId) => team.invite(workspaceId, payload)).pipe(
          Effect.map((data) => ({ data })),
          Effect.catchTag("TeamInvalid", invalid),
          Effect.catchTag("TeamConflict", conflict),
          Effect.catchTag("SqlError", Effect.die)
        ))
      .handle("invitations", () =>
        Effect.flatMap(workspace, (workspaceId) => team.invitations(workspaceId)).pipe(
          Effect.map((data) => ({ data })),
          Effect.orDie
        ))
      .handle("revokeInvitation", ({ params }) =>
        Effect.flatMap(workspace, (workspaceId) => team.revokeInvitation(workspaceId, params.id)).pipe(
          Effect.as({ data: new MembersApi.Revoked({ id: params.id, revoked: true }) }),
          Effect.catchTag("InvitationNotFound", notFound),
          Effect.catchTag("TeamConflict", conflict),
          Effect.catchTag("SqlError", Effect.die)
        ))
      .handle("changeRole", ({ params, payload }) =>
        Effect.flatMap(workspace, (workspaceId) => team.changeRole(workspaceId, params.id, payload.role)).pipe(
          Effect.map((data) => ({ data })),
          Effect.catchTag("TeamInvalid", invalid),
          Effect.catchTag("MemberNotFound", notFound),
          Effect.catchTag("TeamConflict", conflict),
          Effect.catchTag("SqlError", Effect.die)
        ))
      .handle("remove", ({ params }) =>
        Effect.flatMap(workspace, (workspaceId) => team.remove(workspaceId, params.id)).pipe(
          Effect.as({ data: new MembersApi.Removed({ id: params.id, removed: true }) }),
          Effect.catchTag("MemberNotFound", notFound),
          Effect.catchTag("TeamConflict", conflict),
          Effect.catchTag("SqlError", Effect.die)
        ))
  })
)

/** An invitation link of before the console, opened in a browser: on to the console's invitation page. */
export const invitationsLayer = HttpApiBuilder.group(
  HeraldApi.HeraldApi,
  "invitations",
  (handlers) =>
    handlers.handle("accept", ({ params }) =>
      // The token moves to the fragment, which browsers keep across the redirect and never send on.
      Effect.succeed(HttpServerResponse.redirect(`/app/invitation#${params.token}`, { status: 303 })))
)
