import { Effect, Layer } from "effect"
import { HttpClient, HttpClientError } from "effect/http"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { RemoteHosts } from "@herald/core"

/**
 * The HTTP client the network adapters are made with. Requests to Herald's own address (the sandbox networks,
 * its media) go as they are; every other host is reached by `RemoteHosts`' rule: a network's configured API is
 * public and passes it, while a host a person chose (the server of a network of many) is refused when it is not public
 * (issue 28: any host and port was reached, a loopback port or the local Redis, with a port oracle in the
 * error). With private addresses allowed (development), every request goes as it is.
 */
export const layer = (options: { readonly own: string; readonly allowPrivate: boolean }) =>
  Layer.effect(
    HttpClient.HttpClient,
    Effect.gen(function*() {
      const plain = yield* HttpClient.HttpClient
      if (options.allowPrivate) return plain
      const dispatcher = yield* NodeHttpClient.makeDispatcherOptions({ connect: { lookup: RemoteHosts.lookup } })
      const guarded = yield* Effect.provideService(NodeHttpClient.makeUndici, NodeHttpClient.Dispatcher, dispatcher)
      const own = `${options.own}/`
      return HttpClient.make((request) =>
        request.url.startsWith(own)
          ? plain.execute(request)
          : RemoteHosts.check(request.url, false).pipe(
            Effect.mapError((refused) =>
              new HttpClientError.HttpClientError({
                reason: new HttpClientError.TransportError({ request, description: refused.message })
              })
            ),
            Effect.andThen(guarded.execute(request))
          )
      )
    })
  ).pipe(Layer.provide(NodeHttpClient.layerUndici))
