import { Effect, Option } from "effect"
import { HttpServerResponse } from "effect/http"
import * as HandlerGroup from "./HandlerGroup.ts"
import { HeraldApi } from "@herald/api"
import { Connections, Sessions } from "@herald/core"
import * as SessionAuth from "./SessionAuth.ts"

import { page } from "../internal/page.ts"

// Back to the console page that started the flow, saying how it went (`returnTo` is a checked `/app/` path).
const backTo = (returnTo: string, outcome: { readonly connected: string } | { readonly error: string }) =>
  HttpServerResponse.redirect(`${returnTo}?${new URLSearchParams(outcome)}`, { status: 303 })

// Anyone can link a person to the callback with an `error_description` of their own: the network's words are
// repeated only for a flow Herald started that is still waiting, to a person signed in to the workspace that
// started it, and never more than this many characters of them (decision 0060). Someone else (no session: a
// key's flow opened in a browser, or an attacker's own flow linked to a stranger) is told the error code in
// Herald's words when it is one of OAuth's (RFC 6749, section 4.1.2.1), which no attacker can write.
const notIssued = "The connection could not be completed; start it again"
const maxNetworkText = 200
const maxMessage = 400

const oauthErrors: Readonly<Record<string, string>> = {
  access_denied: "access was refused on its consent page",
  invalid_request: "the request to it was not valid",
  unauthorized_client: "Herald may not connect accounts this way",
  unsupported_response_type: "it does not offer this way of connecting",
  invalid_scope: "it does not grant the permissions Herald asks for",
  server_error: "it had a fault; try again",
  temporarily_unavailable: "it is unavailable for now; try again later"
}

/** What a person without a session of the flow's workspace is told: OAuth's code in Herald's words. */
const inHeraldsWords = (code: string) => {
  const known = Object.hasOwn(oauthErrors, code) ? oauthErrors[code] : undefined
  return known === undefined ? notIssued : `The network said ${known} (${code})`
}

/** At most `max` characters (code points, so no emoji is cut in half), control characters made spaces. */
const bounded = (text: string, max: number) => {
  const characters = Array.from(text.replace(/[\u0000-\u001f\u007f]/g, " "))
  return characters.length <= max ? characters.join("") : `${characters.slice(0, max - 1).join("")}…`
}

export const layer = (api: HeraldApi.HeraldApi) => HandlerGroup.group(
  api,
  "oauth",
  Effect.fnUntraced(function*(handlers) {
    const connections = yield* Connections.Connections
    const sessions = yield* Sessions.Sessions

    /** The network's words when the flow is one Herald started for the person who came back; else generic ones. */
    const networkSaid = Effect.fn("OAuthHandlers.networkSaid")(function*(
      platform: string,
      state: string | undefined,
      answer: { readonly error: string; readonly description: string | undefined }
    ) {
      if (state === undefined) return notIssued
      const workspaceId = yield* Effect.orDie(connections.cancel({ platform, state }))
      if (Option.isNone(workspaceId)) return notIssued
      const session = yield* SessionAuth.optionalSession(sessions)
      if (Option.isNone(session)) return inHeraldsWords(answer.error)
      return session.value.workspaceId !== workspaceId.value
        ? notIssued
        : `The network said: ${bounded(answer.description ?? answer.error, maxNetworkText)}`
    })

    return handlers.handle("callback", ({ params, query }) => {
      const returnTo = Connections.returnTo(query.state)
      const notConnected = (message: string) => {
        const shown = bounded(message, maxMessage)
        return returnTo === undefined ? Effect.fail(page("Not connected", shown)) : Effect.succeed(backTo(returnTo, { error: shown }))
      }
      if (query.error !== undefined) {
        return Effect.flatMap(
          networkSaid(params.platform, query.state, { error: query.error, description: query.error_description }),
          notConnected
        )
      }
      if (query.code === undefined || query.state === undefined) return notConnected("The network's answer has no code or state.")
      return connections.complete({ platform: params.platform, state: query.state, code: query.code }).pipe(
        Effect.map((account) =>
          returnTo === undefined
            ? page("Connected", `@${account.username} on ${account.platform} is connected to Herald (${account.id}).`)
            : backTo(returnTo, { connected: account.id })
        ),
        Effect.catch((error) => notConnected(error.message))
      )
    })
  })
)
