import { Effect } from "effect"
import * as HandlerGroup from "./HandlerGroup.ts"
import { Connect } from "@herald/adapter-kit"
import { HeraldApi, NetworksApi } from "@herald/api"
import { Networks } from "@herald/core"
import { Installed } from "../Installed.ts"

// In the sandbox, an OAuth consent page can log in as any simulated account: the `username` field of
// `POST /api/v1/accounts/connect/:platform` picks it.
const sandboxUsername = new Connect.Field({
  name: "username",
  label: "Sandbox username",
  hint: "The simulated account to connect; a new one when left empty.",
  required: false,
  secret: false
})

/** The networks offered, as `GET /api/v1/networks` answers them (MCP's `list_networks` answers the same). */
export const offered = Effect.gen(function*() {
  const networks = yield* Networks.Networks
  const installed = yield* Installed
  return NetworksApi.describe(networks.all, (adapter) =>
    installed.sandbox && adapter.connect.method === "oauth"
      ? new Connect.Connect({ ...adapter.connect, fields: [...adapter.connect.fields, sandboxUsername] })
      : adapter.connect)
})

export const layer = (api: HeraldApi.HeraldApi) => HandlerGroup.group(
  api,
  "networks",
  Effect.fnUntraced(function*(handlers) {
    const data = yield* offered
    return handlers.handle("list", () => Effect.succeed({ data }))
  })
)
