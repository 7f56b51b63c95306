import { Clock, Context, Duration, Effect, Layer, Metric, Schedule } from "effect"

/**
 * Which networks are not answering (issue 30, point 6; decision 0066). Every call of the adapters' client
 * (NetworkHttp) is counted here while it waits, by network; a network whose oldest call has waited longer than
 * `slowAfterMs`, or whose latest call timed out, is degraded until a call answers again (or, when no call is
 * made, for `logEveryMs` after the timeout). A degraded network is
 * logged once per `logEveryMs`, counted in `herald_network_timeouts_total`, and named by `/ready` (which stays
 * 200: a stuck network is not a reason to send this process no traffic).
 */
export interface Options {
  /** How long a network has to answer a call (its headers); `HERALD_NETWORK_TIMEOUT_MS`, default 60 s. */
  readonly timeoutMs: number
  /**
   * The same for a request whose body is over `largeBodyBytes` (video uploads): at least 5 minutes, and
   * longer for a body that needs it at `minUploadBytesPerSecond` (a 512 MiB video: 18 minutes), see `timeoutFor`.
   */
  readonly uploadTimeoutMs: number
  readonly largeBodyBytes: number
  /** The slowest upload a network is waited for: 512 KiB/s by default. */
  readonly minUploadBytesPerSecond: number
  /** How long a connection to a network may take to open (TCP and TLS); default 10 s. */
  readonly connectTimeoutMs: number
  /** A call waiting longer than this makes its network degraded; default 30 s. */
  readonly slowAfterMs: number
  /** At most one warning per network per this interval; default one minute. */
  readonly logEveryMs: number
}

export const defaults: Options = {
  timeoutMs: 60_000,
  uploadTimeoutMs: 300_000,
  largeBodyBytes: 1024 * 1024,
  minUploadBytesPerSecond: 512 * 1024,
  connectTimeoutMs: 10_000,
  slowAfterMs: 30_000,
  logEveryMs: 60_000
}

/**
 * How long a call with a body of `length` bytes waits for its answer: `timeoutMs`, or for a large body the time
 * to send it at the slowest rate waited for plus `timeoutMs`, and never less than `uploadTimeoutMs`.
 */
export const timeoutFor = (options: Options, length: number | undefined): number =>
  length === undefined || length <= options.largeBodyBytes
    ? options.timeoutMs
    : Math.max(options.uploadTimeoutMs, Math.ceil((length / options.minUploadBytesPerSecond) * 1000) + options.timeoutMs)

/** Label `network`: calls that got no answer within Herald's timeout. */
export const networkTimeouts = Metric.counter("herald_network_timeouts_total", {
  description: "Network calls that got no answer within Herald's own timeout, by network",
  incremental: true
})

/** Label `network`: calls waiting for an answer now. */
const networkCallsInFlight = Metric.gauge("herald_network_calls_in_flight", {
  description: "Network calls waiting for an answer, by network"
})

interface NetworkState {
  readonly waiting: Map<number, number>
  timeouts: Array<number>
  lastTimedOut: boolean
  lastLoggedAt: number | undefined
}

/**
 * The network a request is for: on Herald's own address, the sandbox network in `/sandbox/<network>/`, else the
 * host.
 */
export const networkOf = (url: string, own: string): string => {
  if (url.startsWith(`${own}/sandbox/`)) {
    const name = url.slice(own.length + "/sandbox/".length).split(/[/?#]/)[0]
    if (name !== undefined && name !== "") return `sandbox ${name}`
  }
  return URL.parse(url)?.hostname ?? "unknown"
}

export class NetworkWatch extends Context.Service<NetworkWatch, {
  readonly options: Options
  /** Counts `call` as waiting on `network` while it runs. */
  readonly track: <A, E, R>(network: string, call: Effect.Effect<A, E, R>) => Effect.Effect<A, E, R>
  /** A call to `network` got no answer in time. */
  readonly timedOut: (network: string) => Effect.Effect<void>
  /** The degraded networks, each with what is wrong; empty when every network answers. */
  readonly degraded: Effect.Effect<Readonly<Record<string, string>>>
}>()("@herald/server/NetworkWatch") {
  static readonly layer = (given: Partial<Options> = {}) =>
    Layer.effect(NetworkWatch, Effect.gen(function*() {
      const options: Options = { ...defaults, ...given }
      const states = new Map<string, NetworkState>()
      let nextId = 0
      const stateOf = (network: string) => {
        let state = states.get(network)
        if (state === undefined) {
          state = { waiting: new Map(), timeouts: [], lastTimedOut: false, lastLoggedAt: undefined }
          states.set(network, state)
        }
        return state
      }
      const gauge = (network: string, state: NetworkState) =>
        Metric.update(Metric.withAttributes(networkCallsInFlight, { network }), state.waiting.size)

      // What is wrong with `network` at `now`, or undefined when nothing is.
      const problem = (state: NetworkState, now: number) => {
        state.timeouts = state.timeouts.filter((at) => now - at < options.logEveryMs)
        const oldest = Math.min(...state.waiting.values())
        const oldestMs = state.waiting.size === 0 ? 0 : now - oldest
        // A timeout keeps its network degraded until a call answers, or for the interval when none is made.
        if (oldestMs <= options.slowAfterMs && !(state.lastTimedOut && state.timeouts.length > 0)) return undefined
        return `${state.waiting.size} calls waiting, the oldest for ${Math.round(oldestMs / 1000)} s; ` +
          `${state.timeouts.length} timed out in the last minute`
      }

      // One warning per network per interval, whatever the number of calls.
      const report = (network: string, state: NetworkState, now: number) =>
        Effect.suspend(() => {
          const wrong = problem(state, now)
          if (wrong === undefined) return Effect.void
          if (state.lastLoggedAt !== undefined && now - state.lastLoggedAt < options.logEveryMs) return Effect.void
          state.lastLoggedAt = now
          return Effect.logWarning(`${network} is not answering: ${wrong}`)
        })

      // Calls that wait without ever timing out yet (a longer upload timeout) are reported by this round.
      yield* Effect.forkScoped(Effect.repeat(
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          Effect.forEach(states, ([network, state]) => report(network, state, now), { discard: true })),
        Schedule.spaced(Duration.millis(Math.max(100, Math.min(options.slowAfterMs, 5_000))))
      ))

      return NetworkWatch.of({
        options,
        track: (network, call) =>
          Effect.uninterruptibleMask((restore) =>
            Effect.gen(function*() {
              const state = stateOf(network)
              const id = nextId++
              state.waiting.set(id, yield* Clock.currentTimeMillis)
              yield* gauge(network, state)
              return yield* restore(call).pipe(
                Effect.onExit((exit) =>
                  Effect.suspend(() => {
                    state.waiting.delete(id)
                    // An answer of any kind (even an error status) means the network answers again.
                    if (exit._tag === "Success") state.lastTimedOut = false
                    return gauge(network, state)
                  })
                )
              )
            })
          ),
        timedOut: (network) =>
          Effect.gen(function*() {
            const state = stateOf(network)
            const now = yield* Clock.currentTimeMillis
            state.timeouts.push(now)
            state.lastTimedOut = true
            yield* Metric.update(Metric.withAttributes(networkTimeouts, { network }), 1)
            yield* report(network, state, now)
          }),
        degraded: Effect.map(Clock.currentTimeMillis, (now) => {
          const out: Record<string, string> = {}
          for (const [network, state] of states) {
            const wrong = problem(state, now)
            if (wrong !== undefined) out[network] = `degraded: ${wrong}`
          }
          return out
        })
      })
    }))
}
