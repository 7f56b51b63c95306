import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Connect, Icon } from "@herald/adapter-kit"
import { HeraldApi, NetworkOptions, NetworksApi } from "@herald/api"
import { Networks } from "@herald/core"
import { Installed } from "../Installed.ts"

// In the sandbox, an OAuth consent page can log in as any simulated account: the `username` query
// parameter of `GET /api/v1/accounts/connect/:platform` picks it.
const sandboxUsername = new Connect.Field({
  name: "username",
  label: "Sandbox username",
  hint: "The simulated account to connect; a new one when left empty.",
  required: false,
  secret: false
})

export const layer = (api: HeraldApi.HeraldApi) => HttpApiBuilder.group(
  api,
  "networks",
  Effect.fnUntraced(function*(handlers) {
    const networks = yield* Networks.Networks
    const installed = yield* Installed
    const data = networks.all.map((adapter) =>
      new NetworksApi.Network({
        key: adapter.network,
        name: adapter.name,
        icon: adapter.icon === undefined ? null : Icon.dataUrl(adapter.icon),
        limits: adapter.limits,
        capabilities: new NetworksApi.Capabilities({ ...adapter.capabilities, inbox: adapter.inbox !== undefined }),
        connect: installed.sandbox && adapter.connect.method === "oauth"
          ? new Connect.Connect({ ...adapter.connect, fields: [...adapter.connect.fields, sandboxUsername] })
          : adapter.connect,
        options: NetworkOptions.fromDeclaration(adapter.options)
      })
    )
    return handlers.handle("list", () => Effect.succeed({ data }))
  })
)
