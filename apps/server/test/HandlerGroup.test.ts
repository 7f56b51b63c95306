import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer, Option, Schema } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { HttpApi, HttpApiBuilder, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import * as HandlerGroup from "../src/http/HandlerGroup.ts"

// A group built inside the server keeps, for its requests, only what the server's own context lacks: the
// services the server already gives every request are not merged into each request's context again.

class ServerWide extends Context.Service<ServerWide, { readonly name: string }>()("test/HandlerGroup/ServerWide") {}
class GroupOnly extends Context.Service<GroupOnly, { readonly name: string }>()("test/HandlerGroup/GroupOnly") {}

class Probe extends HttpApiGroup.make("probe").add(
  HttpApiEndpoint.get("seen", "/seen", {
    success: Schema.Struct({ serverWide: Schema.Boolean, groupOnly: Schema.Boolean, built: Schema.String })
  })
) {}
class ProbeApi extends HttpApi.make("probe").add(Probe) {}

const serverWide = Layer.succeed(ServerWide)({ name: "server" })
const groupOnly = Layer.succeed(GroupOnly)({ name: "group" })

/** What the request's context held: the handler looks at request time, after its build read both. */
const probeGroup = HandlerGroup.group(ProbeApi, "probe", (handlers) =>
  Effect.gen(function*() {
    const built = `${(yield* ServerWide).name}+${(yield* GroupOnly).name}`
    return handlers.handle("seen", () =>
      Effect.gen(function*() {
        const server = yield* Effect.serviceOption(ServerWide)
        const group = yield* Effect.serviceOption(GroupOnly)
        return { serverWide: Option.isSome(server), groupOnly: Option.isSome(group), built }
      }))
  }))

/**
 * Serves the group the way `Http.routes` does, with `RequestBase` (when given) the context the routes are
 * built in: there `ServerWide` stands for the server's services, but this web handler's requests do not
 * carry it, so a request sees it only if the group kept it.
 */
const seen = async (withBase: boolean) => {
  const routes = Layer.unwrap(Effect.map(Effect.context<never>(), (base) =>
    HttpApiBuilder.layer(ProbeApi).pipe(
      Layer.provide(probeGroup),
      Layer.provide(groupOnly),
      Layer.provide(withBase ? Layer.succeed(HandlerGroup.RequestBase)(base) : Layer.empty)
    ))).pipe(Layer.provide(serverWide), Layer.provide(HttpServer.layerServices))
  const web = HttpRouter.toWebHandler(routes, { disableLogger: true })
  try {
    const response = await web.handler(new Request("http://herald.test/seen"))
    expect(response.status).toBe(200)
    return await response.json()
  } finally {
    await web.dispose()
  }
}

describe("HandlerGroup.group", () => {
  it("keeps for the group's requests only the services the server's context lacks", async () => {
    // Built in the whole context, but a request carries only what was provided to the group alone.
    expect(await seen(true)).toEqual({ serverWide: false, groupOnly: true, built: "server+group" })
  })

  it("keeps the whole context, as HttpApiBuilder.group does, when not told the server's", async () => {
    expect(await seen(false)).toEqual({ serverWide: true, groupOnly: true, built: "server+group" })
  })
})
