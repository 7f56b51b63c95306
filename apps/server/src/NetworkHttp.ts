import { Duration, Effect, Layer } from "effect"
import { HttpClient, HttpClientError, HttpClientRequest } from "effect/http"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { RemoteHosts } from "@herald/core"
import { NetworkWatch, networkOf, timeoutFor } from "./NetworkWatch.ts"

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
export const layer = (options: {
  readonly own: string
  readonly allowPrivate: boolean
  /** In the sandbox: the networks whose simulators every process serves under `/sandbox/<network>`. */
  readonly simulated?: ReadonlySet<string> | undefined
}) =>
  Layer.effect(
    HttpClient.HttpClient,
    Effect.gen(function*() {
      const watch = yield* NetworkWatch
      const own = `${options.own}/`
      // Herald's own connect timeout on every path (TCP and TLS), rather than the library's default.
      const connect = { timeout: watch.options.connectTimeoutMs }
      const clientWith = (dispatcherOptions: Parameters<typeof NodeHttpClient.makeDispatcherOptions>[0]) =>
        Effect.flatMap(
          NodeHttpClient.makeDispatcherOptions(dispatcherOptions),
          (dispatcher) => Effect.provideService(NodeHttpClient.makeUndici, NodeHttpClient.Dispatcher, dispatcher)
        )
      const plain = yield* clientWith({ connect })
      const guarded = options.allowPrivate ? plain : yield* clientWith({ connect: { ...connect, lookup: RemoteHosts.lookup } })
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
      const simulated = options.simulated ?? new Set<string>()
      return HttpClient.make((given) => {
        const request = simulated.size === 0 ? given : toOwnSimulator(given, options.own, simulated)
        const network = networkOf(request.url, options.own)
        const timeoutMs = timeoutFor(watch.options, "contentLength" in request.body ? request.body.contentLength : undefined)
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
  )

/**
 * A call to a sandbox simulator at another Herald process's address, answered by this process's own: the
 * simulators keep their state in the shared database, so any process serves any sandbox account. A sandbox
 * account of a network of many servers stores the address of the process it was connected through as its
 * server (`<that process's URL>/sandbox/<network>`); without this, it failed while that one process was down
 * (issue 30). Only the sandbox's networks' paths are taken, and only in the sandbox; a call that goes to this
 * process instead reaches no other host, so the rule can only narrow where a call goes.
 */
export const toOwnSimulator = (request: HttpClientRequest.HttpClientRequest, own: string, simulated: ReadonlySet<string>) => {
  if (request.url.startsWith(`${own}/`)) return request
  const url = URL.parse(request.url)
  if (url === null) return request
  const [, root, network] = url.pathname.split("/")
  return root === "sandbox" && network !== undefined && simulated.has(network)
    ? HttpClientRequest.setUrl(request, `${own}${url.pathname}${url.search}`)
    : request
}

const hostOf = (url: string) => URL.parse(url)?.host ?? "the network"
