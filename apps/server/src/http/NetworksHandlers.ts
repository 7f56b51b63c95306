import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { HeraldApi, NetworksApi } from "@herald/api"
import { Networks } from "@herald/core"

export const layer = HttpApiBuilder.group(
  HeraldApi.HeraldApi,
  "networks",
  Effect.fnUntraced(function*(handlers) {
    const networks = yield* Networks.Networks
    const data = networks.all.map((adapter) =>
      new NetworksApi.Network({
        key: adapter.network,
        name: adapter.name,
        limits: adapter.limits,
        capabilities: new NetworksApi.Capabilities({ ...adapter.capabilities, inbox: adapter.inbox !== undefined })
      })
    )
    return handlers.handle("list", () => Effect.succeed({ data }))
  })
)
