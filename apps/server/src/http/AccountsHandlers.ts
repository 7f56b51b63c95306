import { Effect } from "effect"
import * as HandlerGroup from "./HandlerGroup.ts"
import { AccountsApi, Authorization, HeraldApi } from "@herald/api"
import { Accounts, Connections } from "@herald/core"
import { PublicUrl } from "../PublicUrl.ts"
import { domainError } from "./ErrorRendering.ts"

export const layer = (api: HeraldApi.HeraldApi) => HandlerGroup.group(
  api,
  "accounts",
  Effect.fnUntraced(function*(handlers) {
    const accounts = yield* Accounts.Accounts
    const connections = yield* Connections.Connections
    const publicUrl = yield* PublicUrl
    return handlers
      .handle("list", () =>
        Effect.gen(function*() {
          const principal = yield* Authorization.CurrentPrincipal
          const data = yield* Effect.orDie(accounts.list(principal.workspaceId))
          return { data }
        }))
      .handle("connect", ({ params, query }) =>
        Effect.gen(function*() {
          const principal = yield* Authorization.CurrentPrincipal
          const started = yield* connections.start({
            workspaceId: principal.workspaceId,
            platform: params.platform,
            redirectUri: `${publicUrl}/oauth/${params.platform}/callback`,
            sandboxUsername: query.username,
            returnTo: query.returnTo,
            server: query.server
          }).pipe(
            Effect.catchTag("SqlError", Effect.die),
            Effect.catchTags({
              UnknownNetwork: (error) => domainError(error),
              InvalidReturnTo: (error) => domainError(error),
              InvalidConnect: (error) => domainError(error),
              ConnectionFailed: (error) => domainError(error)
            })
          )
          return { data: new AccountsApi.ConnectLink({ url: started.url, expiresAt: started.expiresAt }) }
        }))
      .handle("signIn", ({ payload }) =>
        Effect.gen(function*() {
          const principal = yield* Authorization.CurrentPrincipal
          const data = yield* connections.signIn({
            workspaceId: principal.workspaceId,
            platform: payload.platform,
            fields: payload.fields
          }).pipe(
            Effect.catchTag("SqlError", Effect.die),
            Effect.catchTags({ UnknownNetwork: (error) => domainError(error), InvalidConnect: (error) => domainError(error), ConnectionFailed: (error) => domainError(error) })
          )
          return { data }
        }))
      .handle("disconnect", ({ params }) =>
        Effect.gen(function*() {
          const principal = yield* Authorization.CurrentPrincipal
          yield* connections.disconnect(principal.workspaceId, params.id).pipe(
            Effect.catchTag("AccountNotFound", (error) => domainError(error)),
            Effect.catchTag("SqlError", Effect.die)
          )
          return { data: new AccountsApi.Disconnected({ id: params.id, disconnected: true }) }
        }))
  })
)
