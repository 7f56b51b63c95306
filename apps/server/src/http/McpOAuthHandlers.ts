import { Effect } from "effect"
import * as HandlerGroup from "./HandlerGroup.ts"
import { ApiError, Authorization, HeraldApi, McpOAuthApi } from "@herald/api"
import { OAuth, People } from "@herald/core"
import { Permissions, type Workspace } from "@herald/domain"

// The consent page's and Settings' calls to Herald's OAuth server (decision 0045). A person answers a
// request: the session, not a key. Owners and admins see and disconnect every assistant of the workspace;
// others only their own.

/** The signed-in person; a key has no person to consent. */
const person = Effect.flatMap(Authorization.CurrentPrincipal, (principal) =>
  principal.personId === null || principal.memberId === null
    ? Effect.fail(new ApiError.Unauthorized({ message: "Not signed in: this needs the console's session cookie, not an API key" }))
    : Effect.succeed({ ...principal, personId: principal.personId, memberId: principal.memberId }))

/** Whose grants the person sees and disconnects: all of the workspace's for owners and admins, else their own. */
const ownerOf = (principal: { readonly role: Workspace.Role | null; readonly memberId: string }) =>
  principal.role !== null && Permissions.can(principal.role, "manageAllAssistants") ? null : principal.memberId

const notFound = (error: OAuth.RequestNotFound | OAuth.GrantNotFound) => Effect.fail(new ApiError.NotFound({ message: error.message }))

export const layer = (api: HeraldApi.HeraldApi) => HandlerGroup.group(
  api,
  "mcpOAuth",
  Effect.fnUntraced(function*(handlers) {
    const oauth = yield* OAuth.OAuth
    const people = yield* People.People

    return handlers
      .handle("request", ({ params }) =>
        Effect.gen(function*() {
          const { personId } = yield* person
          const pending = yield* oauth.pending(params.id)
          const workspaces = yield* people.memberships(personId)
          const direct = yield* oauth.directPublishing(personId)
          return {
            data: new McpOAuthApi.McpOAuthRequest({
              ...pending,
              client: new McpOAuthApi.McpOAuthClient(pending.client),
              workspaces: workspaces.map((one) =>
                new McpOAuthApi.McpOAuthWorkspace({
                  id: one.id,
                  name: one.name,
                  role: one.role,
                  permissions: Permissions.allowed(one.role),
                  mayPublishDirectly: direct.has(one.id)
                })
              )
            })
          }
        }).pipe(Effect.catchTag("RequestNotFound", notFound)))
      .handle("approve", ({ params, payload }) =>
        Effect.gen(function*() {
          const { personId } = yield* person
          const redirectTo = yield* oauth.approve(params.id, personId, payload.workspaceId, payload.publishesDirectly === true)
          return { data: new McpOAuthApi.McpOAuthRedirect({ redirectTo }) }
        }).pipe(
          Effect.catchTag("RequestNotFound", notFound),
          Effect.catchTag("NotAMemberOf", (error) =>
            Effect.fail(new ApiError.Invalid({ message: error.message, details: [{ field: "workspaceId", message: error.message }] }))),
          Effect.catchTag("DirectPublishingRefused", (error) =>
            Effect.fail(
              new ApiError.Invalid({ message: error.message, details: [{ field: "publishesDirectly", message: error.message }] })
            ))
        ))
      .handle("deny", ({ params }) =>
        Effect.gen(function*() {
          yield* person
          const redirectTo = yield* oauth.deny(params.id)
          return { data: new McpOAuthApi.McpOAuthRedirect({ redirectTo }) }
        }).pipe(Effect.catchTag("RequestNotFound", notFound)))
      .handle("grants", () =>
        Effect.gen(function*() {
          const principal = yield* person
          const grants = yield* oauth.grants(principal.workspaceId, ownerOf(principal))
          return {
            data: grants.map((grant) => new McpOAuthApi.McpOAuthGrant({ ...grant, client: new McpOAuthApi.McpOAuthClient(grant.client) }))
          }
        }))
      .handle("revokeGrant", ({ params }) =>
        Effect.gen(function*() {
          const principal = yield* person
          yield* oauth.revokeGrant(principal.workspaceId, params.id, ownerOf(principal))
          return { data: new McpOAuthApi.McpOAuthGrantRevoked({ id: params.id, revoked: true }) }
        }).pipe(Effect.catchTag("GrantNotFound", notFound)))
  })
)
