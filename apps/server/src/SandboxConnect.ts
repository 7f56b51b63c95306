import { Effect, Schema } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { Connections } from "@herald/core"
import { Installed } from "./Installed.ts"
import { PublicUrl } from "./PublicUrl.ts"

export class SandboxConnectFailed extends Schema.TaggedError<SandboxConnectFailed>()("SandboxConnectFailed", {
  message: Schema.String
}) {}

/** What connecting a sandbox account needs from the running server. */
export type Requirements = Installed | Connections.Connections | PublicUrl | HttpClient.HttpClient

/**
 * Connects a sandbox account through the same OAuth code path a person's browser takes: start the flow,
 * open the network's consent screen (the simulator this server serves), follow its redirect to the
 * callback. Used by `herald account connect --sandbox` and the first run's Demo workspace.
 */
export const connect = Effect.fn("SandboxConnect.connect")(function*(input: {
  readonly workspaceId: string
  readonly platform: string
  readonly username?: string | undefined
}) {
  const installed = yield* Installed
  if (!installed.sandbox) {
    return yield* new SandboxConnectFailed({
      message: "The sandbox is off (HERALD_SANDBOX=false or network credentials are configured)"
    })
  }
  const connections = yield* Connections.Connections
  const publicUrl = yield* PublicUrl
  const client = yield* HttpClient.HttpClient
  const failed = (message: string) => new SandboxConnectFailed({ message })
  const started = yield* connections.start({
    workspaceId: input.workspaceId,
    platform: input.platform,
    redirectUri: `${publicUrl}/oauth/${input.platform}/callback`,
    sandboxUsername: input.username ?? `demo_${input.platform}`
  }).pipe(Effect.mapError((error) => failed(error.message)))
  const consent = yield* client.execute(HttpClientRequest.get(started.url)).pipe(
    Effect.mapError((error) => failed(`The sandbox consent screen did not answer: ${error.message}`))
  )
  const location = consent.headers["location"]
  if (consent.status !== 302 || location === undefined) {
    return yield* failed(`The sandbox consent screen answered ${consent.status} instead of a redirect`)
  }
  const callback = new URL(location)
  const code = callback.searchParams.get("code")
  const state = callback.searchParams.get("state")
  if (code === null || state === null) return yield* failed("The sandbox redirect carries no code or state")
  return yield* connections.complete({ platform: input.platform, state, code }).pipe(
    Effect.mapError((error) => failed(error.message))
  )
})
