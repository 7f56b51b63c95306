import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { HeraldApi } from "@herald/api"
import { Connections } from "@herald/core"

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)

const page = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${escape(title)}</title></head>` +
  `<body style="font-family: system-ui; max-width: 40rem; margin: 4rem auto"><h1>${escape(title)}</h1>` +
  `<p>${escape(body)}</p></body></html>`

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
