import { Context, Effect, Layer, Option } from "effect"
import { HttpServer } from "effect/http"
import type { Settings } from "@herald/core"

/**
 * The address people and networks reach this server at: `BASE_URL`, or `http://localhost:<port listened
 * on>` when it is unset. Used for printed addresses, OAuth redirect URIs and the sandbox's own links.
 */
export class PublicUrl extends Context.Service<PublicUrl, string>()("@herald/server/PublicUrl") {
  static readonly layer = (settings: Settings.Settings) =>
    Layer.effect(
      PublicUrl,
      Option.match(settings.baseUrl, {
        onSome: Effect.succeed,
        onNone: () =>
          Effect.map(Effect.service(HttpServer.HttpServer), (server) => {
            const address = server.address
            return address._tag === "UnixPathAddress"
              ? HttpServer.formatAddress(address)
              : `http://localhost:${address.port}`
          })
      })
    )
}
