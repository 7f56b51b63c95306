import { Effect } from "effect"
import * as HandlerGroup from "./HandlerGroup.ts"
import { AccountsApi, ApiError, Authorization, HeraldApi } from "@herald/api"
import { Accounts, Connections } from "@herald/core"
import { Permissions } from "@herald/domain"
import { PublicUrl } from "../PublicUrl.ts"
import { viewerRefusal } from "./AuthorizationLive.ts"
import { answered } from "./ErrorRendering.ts"

type StartFields = typeof AccountsApi.StartConnection.Type

// Starting a connection is a change: viewers may not (decision 0060). The POST is refused to them before its
// handler runs, as every change is; the older GET, which that rule lets through as a read, is refused here.
// A console session may not use the GET at all: any site can make a browser send a GET with the cookie
// (SameSite=Lax sends it on a top-level navigation), and the CSRF check guards only the other methods.
const mayStartByGet = (platform: string) =>
  Effect.flatMap(Effect.service(Authorization.CurrentPrincipal), (principal) => {
    if (principal.sessionId !== null) {
      return Effect.fail(new ApiError.Forbidden({
        message: `A console session starts a connection with POST /api/v1/accounts/connect/${platform} ` +
          "(with its X-CSRF-Token); the GET is for API keys only"
      }))
    }
    return Permissions.can(principal.role, "change") ? Effect.void : Effect.fail(viewerRefusal("key"))
  })

export const layer = (api: HeraldApi.HeraldApi) => HandlerGroup.group(
  api,
  "accounts",
  Effect.fnUntraced(function*(handlers) {
    const accounts = yield* Accounts.Accounts
    const connections = yield* Connections.Connections
    const publicUrl = yield* PublicUrl
    const start = Effect.fn("AccountsHandlers.start")(function*(platform: string, fields: StartFields) {
      const principal = yield* Authorization.CurrentPrincipal
      const started = yield* connections.start({
        workspaceId: principal.workspaceId,
        platform,
        redirectUri: `${publicUrl}/oauth/${platform}/callback`,
        sandboxUsername: fields.username,
        returnTo: fields.returnTo,
        server: fields.server
      }).pipe(
        answered
      )
      return { data: new AccountsApi.ConnectLink({ url: started.url, expiresAt: started.expiresAt }) }
    })
    return handlers
      .handle("list", () =>
        Effect.gen(function*() {
          const principal = yield* Authorization.CurrentPrincipal
          const data = yield* Effect.orDie(accounts.list(principal.workspaceId))
          return { data }
        }))
      .handle("startConnection", ({ params, payload }) => start(params.platform, payload))
      .handle("connect", ({ params, query }) => Effect.andThen(mayStartByGet(params.platform), start(params.platform, query)))
      .handle("signIn", ({ payload }) =>
        Effect.gen(function*() {
          const principal = yield* Authorization.CurrentPrincipal
          const data = yield* connections.signIn({
            workspaceId: principal.workspaceId,
            platform: payload.platform,
            fields: payload.fields
          }).pipe(
            answered
          )
          return { data }
        }))
      .handle("disconnect", ({ params }) =>
        Effect.gen(function*() {
          const principal = yield* Authorization.CurrentPrincipal
          yield* connections.disconnect(principal.workspaceId, params.id).pipe(
            answered
          )
          return { data: new AccountsApi.Disconnected({ id: params.id, disconnected: true }) }
        }))
  })
)
