import { Duration, Effect, Layer } from "effect"
import { HttpClient, HttpClientError } from "effect/http"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { RemoteHosts } from "@herald/core"
import { NetworkWatch, networkOf } from "./NetworkWatch.ts"

/**
 * The HTTP client the network adapters are made with. Requests to Herald's own address (the sandbox networks,
 * its media) go as they are; every other host is reached by `RemoteHosts`' rule: a network's configured API is
 * public and passes it, while a host a person chose (the server of a network of many) is refused when it is not public
 * (issue 28: any host and port was reached, a loopback port or the local Redis, with a port oracle in the
 * error). With private addresses allowed (development), every request goes as it is.
 *
 * On every path, a call has Herald's own timeout for its answer (`NetworkWatch`'s options; decision 0066): one
 * that gets none fails as a `TransportError` ("no answer from <host> within <N> s"), which the adapters treat as
 * any lost answer (the engine looks before sending again), and is counted by `NetworkWatch` while it waits.
 */
export const layer = (options: { readonly own: string; readonly allowPrivate: boolean }) =>
  Layer.effect(
    HttpClient.HttpClient,
    Effect.gen(function*() {
      const plain = yield* HttpClient.HttpClient
      const watch = yield* NetworkWatch
      const own = `${options.own}/`
      const guarded = options.allowPrivate ? plain : yield* Effect.provideService(
        NodeHttpClient.makeUndici,
        NodeHttpClient.Dispatcher,
        yield* NodeHttpClient.makeDispatcherOptions({ connect: { lookup: RemoteHosts.lookup } })
      )
      const send = (request: Parameters<typeof plain.execute>[0]) =>
        options.allowPrivate || request.url.startsWith(own)
          ? plain.execute(request)
          : RemoteHosts.check(request.url, false).pipe(
            Effect.mapError((refused) =>
              new HttpClientError.HttpClientError({
                reason: new HttpClientError.TransportError({ request, description: refused.message })
              })
            ),
            Effect.andThen(guarded.execute(request))
          )
      return HttpClient.make((request) => {
        const network = networkOf(request.url, options.own)
        const length = "contentLength" in request.body ? request.body.contentLength : undefined
        const large = (length ?? 0) > watch.options.largeBodyBytes
        const timeoutMs = large ? watch.options.uploadTimeoutMs : watch.options.timeoutMs
        return watch.track(
          network,
          send(request).pipe(Effect.timeoutOrElse({
            duration: Duration.millis(timeoutMs),
            orElse: () =>
              Effect.andThen(
                watch.timedOut(network),
                Effect.fail(
                  new HttpClientError.HttpClientError({
                    reason: new HttpClientError.TransportError({
                      request,
                      description: `no answer from ${hostOf(request.url)} within ${timeoutMs / 1000} s`
                    })
                  })
                )
              )
          }))
        )
      })
    })
  ).pipe(Layer.provide(NodeHttpClient.layerUndici))

const hostOf = (url: string) => {
  try {
    return new URL(url).host
  } catch {
    return "the network"
  }
}
