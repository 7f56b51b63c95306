import { Effect } from "effect"
import * as HandlerGroup from "./HandlerGroup.ts"
import { Authorization, HeraldApi, MembersApi } from "@herald/api"
import { Team } from "@herald/core"
import { Workspace } from "@herald/domain"
import { answered } from "./ErrorRendering.ts"
import * as Roles from "../internal/roles.ts"
import { HttpServerResponse } from "effect/http"


const workspace = Effect.map(Effect.service(Authorization.CurrentPrincipal), (principal) => principal.workspaceId)

// Everyone reads the members; owners, admins and workspace keys manage the team, and never beyond their own
// role (docs/decisions/0024-api-keys-over-rest.md). Invitations are managed too: their links let anyone join.
const manager = Roles.manager("manageTeam", "The team")
const isRole = (role: string): role is Workspace.Role => (Workspace.Role.literals as ReadonlyArray<string>).includes(role)

/** The member, when it is in the principal's workspace and its role is not above the principal's. */
const withinReach = (team: Team.Team["Service"], memberId: string, action: string) =>
  Effect.gen(function*() {
    const principal = yield* manager
    const member = yield* team.member(memberId)
    if (member.workspaceId !== principal.workspaceId) return yield* new Team.MemberNotFound({ memberId })
    yield* Roles.notAbove(principal.role, member.role, `${action} ${Roles.article(member.role)} ${member.role}`)
    return principal
  })

export const layer = (api: HeraldApi.HeraldApi) => HandlerGroup.group(
  api,
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
        Effect.flatMap(manager, (principal) =>
          Effect.andThen(
            isRole(payload.role) ? Roles.notAbove(principal.role, payload.role, `invite ${Roles.article(payload.role)} ${payload.role}`) : Effect.void,
            team.invite(principal.workspaceId, payload)
          )).pipe(
          Effect.map((data) => ({ data })),
          answered
        ))
      .handle("invitations", () =>
        Effect.flatMap(manager, (principal) => Effect.orDie(team.invitations(principal.workspaceId))).pipe(
          Effect.map((data) => ({ data }))
        ))
      .handle("revokeInvitation", ({ params }) =>
        Effect.flatMap(manager, (principal) => team.revokeInvitation(principal.workspaceId, params.id)).pipe(
          Effect.as({ data: new MembersApi.Revoked({ id: params.id, revoked: true }) }),
          answered
        ))
      .handle("changeRole", ({ params, payload }) =>
        withinReach(team, params.id, "change the role of").pipe(
          Effect.tap((principal) =>
            isRole(payload.role) ? Roles.notAbove(principal.role, payload.role, `make anyone ${Roles.article(payload.role)} ${payload.role}`) : Effect.void
          ),
          Effect.flatMap((principal) => team.changeRole(principal.workspaceId, params.id, payload.role)),
          Effect.map((data) => ({ data })),
          answered
        ))
      .handle("remove", ({ params }) =>
        withinReach(team, params.id, "remove").pipe(
          Effect.flatMap((principal) => team.remove(principal.workspaceId, params.id)),
          Effect.as({ data: new MembersApi.Removed({ id: params.id, removed: true }) }),
          answered
        ))
  })
)

/** An invitation link of before the console, opened in a browser: on to the console's invitation page. */
export const invitationsLayer = (api: HeraldApi.HeraldApi) => HandlerGroup.group(
  api,
  "invitations",
  (handlers) =>
    handlers.handle("accept", ({ params }) =>
      // The token moves to the fragment, which browsers keep across the redirect and never send on.
      Effect.succeed(HttpServerResponse.redirect(`/app/invitation#${encodeURIComponent(params.token)}`, { status: 303 })))
)
