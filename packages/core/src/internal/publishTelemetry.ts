import { Effect, Metric, Tracer } from "effect"
import * as Metrics from "../Metrics.ts"

/**
 * What publishing tells an operator: the spans of a post's publishing and of each call to a network, and
 * the series of targets ended and of publishing lag (decision 0049 names them).
 */

/**
 * Runs `effect` in the span `name` when a tracer that exports is installed. Under Effect's native tracer
 * (no exporter: nothing would ever read the span) it runs as it is, so a process without tracing pays for
 * no span on its busiest path.
 */
const span = (name: string, attributes: Readonly<Record<string, unknown>>) =>
<A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.withFiber((fiber) =>
    fiber.getRef(Tracer.Tracer) === Tracer.nativeTracer ? effect : Effect.withSpan(effect, name, { attributes })
  )

/** The span of one post's publishing, from its start to its final status. */
export const publishSpan = (postId: string) => span("herald.publish", { "herald.post_id": postId })

/** Where a call to a network belongs: the span of adapter hook `hook` names these. */
export interface CallSite {
  readonly network: string
  readonly postId: string
  readonly accountId: string
}

/** The span of one call to an adapter's hook (`publish`, `poll`, `reconcile`, `refresh`, `limitsFor`). */
export const networkSpan = (hook: string, site: CallSite) =>
  span(`herald.network.${hook}`, {
    "herald.network": site.network,
    "herald.post_id": site.postId,
    "herald.target_id": site.accountId
  })

// One labelled series per network and outcome, made once rather than on every update.
const endedSeries = new Map<string, Metric.Metric<number, Metric.CounterState<number>>>()
const lagSeries = new Map<string, Metric.Metric<number, Metric.HistogramState>>()

const labelled = <M>(cache: Map<string, M>, key: string, make: () => M) => {
  let series = cache.get(key)
  if (series === undefined) {
    series = make()
    cache.set(key, series)
  }
  return series
}

/** A target of `network` reached its final state. */
export const targetEnded = (network: string, outcome: "published" | "failed") =>
  Metric.update(
    labelled(endedSeries, `${network}\u0000${outcome}`, () => Metric.withAttributes(Metrics.targetsEnded, { network, outcome })),
    1
  )

/** The network accepted a target `lagMs` after its post's time. */
export const accepted = (network: string, lagMs: number) =>
  Metric.update(
    labelled(lagSeries, network, () => Metric.withAttributes(Metrics.publishingLag, { network })),
    Math.max(0, lagMs) / 1000
  )
