import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { HeraldApi } from "@herald/api"
import { Connections } from "@herald/core"

import { page } from "../internal/page.ts"

export const layer = HttpApiBuilder.group(
  HeraldApi.HeraldApi,
  "oauth",
  Effect.fnUntraced(function*(handlers) {
    const connections = yield* Connections.Connections
    return handlers.handle("callback", ({ params, query }) => {
      if (query.error !== undefined) {
        return Effect.fail(page("Not connected", `The network said: ${query.error_description ?? query.error}`))
      }
      if (query.code === undefined || query.state === undefined) {
        return Effect.fail(page("Not connected", "The network's answer has no code or state."))
      }
      return connections.complete({ platform: params.platform, state: query.state, code: query.code }).pipe(
        Effect.map((account) =>
          page("Connected", `@${account.username} on ${account.platform} is connected to Herald (${account.id}).`)
        ),
        Effect.catchTag("SqlError", Effect.die),
        Effect.catch((error) => Effect.fail(page("Not connected", error.message)))
      )
    })
  })
)
