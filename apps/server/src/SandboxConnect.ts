import { Effect, Schema } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { Connect } from "@herald/adapter-kit"
import { Connections, Networks } from "@herald/core"
import { Installed } from "./Installed.ts"
import { PublicUrl } from "./PublicUrl.ts"

export class SandboxConnectFailed extends Schema.TaggedError<SandboxConnectFailed>()("SandboxConnectFailed", {
  message: Schema.String
}) {}

/** What connecting a sandbox account needs from the running server. */
export type Requirements = Installed | Connections.Connections | Networks.Networks | PublicUrl | HttpClient.HttpClient

/**
 * Connects a sandbox account through the same code path a person takes: for OAuth, start the flow, open
 * the network's consent screen (the simulator this server serves), follow its redirect to the callback;
 * for a credentials network, sign in with the fields its simulator accepts. Used by `herald account connect --sandbox` and the first run's Demo workspace.
 */
export const connect = Effect.fn("SandboxConnect.connect")(function*(input: {
  readonly workspaceId: string
  readonly platform: string
  readonly username?: string | undefined
  /** For a network of many servers: the server to connect on (the sandbox's simulator by default). */
  readonly server?: string | undefined
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
  const adapter = yield* Effect.mapError((yield* Networks.Networks).get(input.platform), (error) => failed(error.message))
  if (adapter.connect.method === "credentials" && adapter.credentials !== undefined) {
    return yield* connections.signIn({
      workspaceId: input.workspaceId,
      platform: input.platform,
      fields: adapter.credentials.sandboxFields(input.username ?? `demo_${input.platform}`)
    }).pipe(Effect.mapError((error) => failed(error.message)))
  }
  const started = yield* connections.start({
    workspaceId: input.workspaceId,
    platform: input.platform,
    redirectUri: `${publicUrl}/oauth/${input.platform}/callback`,
    sandboxUsername: input.username ?? `demo_${input.platform}`,
    server: input.server ?? (Connect.asksServer(adapter.connect) ? `${publicUrl}/sandbox/${input.platform}` : undefined)
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
