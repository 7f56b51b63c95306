import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Authorization, HeraldApi } from "@herald/api"
import { Accounts } from "@herald/core"

export const layer = HttpApiBuilder.group(
  HeraldApi.HeraldApi,
  "accounts",
  Effect.fnUntraced(function*(handlers) {
    const accounts = yield* Accounts.Accounts
    return handlers.handle("list", () =>
      Effect.gen(function*() {
        const principal = yield* Authorization.CurrentPrincipal
        const data = yield* Effect.orDie(accounts.list(principal.workspaceId))
        return { data }
      }))
  })
)
