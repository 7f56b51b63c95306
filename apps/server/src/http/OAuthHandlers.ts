import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import * as HandlerGroup from "./HandlerGroup.ts"
import { HeraldApi } from "@herald/api"
import { Connections } from "@herald/core"

import { page } from "../internal/page.ts"

// Back to the console page that started the flow, saying how it went (`returnTo` is a checked `/app/` path).
const backTo = (returnTo: string, outcome: { readonly connected: string } | { readonly error: string }) =>
  HttpServerResponse.redirect(`${returnTo}?${new URLSearchParams(outcome)}`, { status: 303 })

export const layer = (api: HeraldApi.HeraldApi) => HandlerGroup.group(
  api,
  "oauth",
  Effect.fnUntraced(function*(handlers) {
    const connections = yield* Connections.Connections
    return handlers.handle("callback", ({ params, query }) => {
      const returnTo = Connections.returnTo(query.state)
      const notConnected = (message: string) =>
        returnTo === undefined ? Effect.fail(page("Not connected", message)) : Effect.succeed(backTo(returnTo, { error: message }))
      if (query.error !== undefined) return notConnected(`The network said: ${query.error_description ?? query.error}`)
      if (query.code === undefined || query.state === undefined) return notConnected("The network's answer has no code or state.")
      return connections.complete({ platform: params.platform, state: query.state, code: query.code }).pipe(
        Effect.map((account) =>
          returnTo === undefined
            ? page("Connected", `@${account.username} on ${account.platform} is connected to Herald (${account.id}).`)
            : backTo(returnTo, { connected: account.id })
        ),
        Effect.catchTag("SqlError", Effect.die),
        Effect.catch((error) => notConnected(error.message))
      )
    })
  })
)
