import { Effect } from "effect"
import * as HandlerGroup from "./HandlerGroup.ts"
import { ApiError, Authorization, HeraldApi } from "@herald/api"
import { Workspaces } from "@herald/core"
import { Permissions } from "@herald/domain"
import { whoMay } from "../internal/roles.ts"
import { answeredInOwn } from "./ErrorRendering.ts"

export const layer = (api: HeraldApi.HeraldApi) => HandlerGroup.group(
  api,
  "workspace",
  Effect.fnUntraced(function*(handlers) {
    const workspaces = yield* Workspaces.Workspaces
    return handlers
      .handle("get", () =>
        Effect.flatMap(Authorization.CurrentPrincipal, (principal) => workspaces.get(principal.workspaceId)).pipe(
          Effect.map((data) => ({ data })),
          Effect.orDie
        ))
      .handle("update", ({ payload }) =>
        Effect.gen(function*() {
          const principal = yield* Authorization.CurrentPrincipal
          if (principal.role !== null && !Permissions.can(principal.role, "manageSettings")) {
            return yield* new ApiError.Forbidden({
              message: `This ${principal.keyId === null ? "session" : "key"} acts for a member whose role is ${principal.role}; ` +
                `settings are for ${whoMay("manageSettings")}`
            })
          }
          return { data: yield* workspaces.update(principal.workspaceId, payload) }
        }).pipe(
          answeredInOwn
        ))
  })
)
