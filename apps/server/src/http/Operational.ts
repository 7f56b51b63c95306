import { Effect, Layer, Schema } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { SystemApi } from "@herald/api"
import * as ErrorRendering from "./ErrorRendering.ts"
import * as Metrics from "./Metrics.ts"
import * as SystemHandlers from "./SystemHandlers.ts"

// A `worker` process serves no API, but an operator still has to probe it and scrape it: it answers
// `/health`, `/ready` (is its runner holding shards?) and `/metrics` (its publishing and webhook figures)
// with the same bodies and rules as the API processes, and 404 in the reference's shape to anything else.

const answer = <A, I, E, EI>(
  effect: Effect.Effect<A, E, never>,
  success: Schema.Codec<A, I>,
  failure: Schema.Codec<E, EI>
) =>
  Effect.match(effect, {
    onSuccess: (value) => HttpServerResponse.jsonUnsafe(Schema.encodeSync(success)(value)),
    onFailure: (error) => HttpServerResponse.jsonUnsafe(Schema.encodeSync(failure)(error), { status: 503 })
  })

export const layer = Layer.mergeAll(
  HttpRouter.use(Effect.fnUntraced(function*(router) {
    const context = yield* Effect.context<SystemHandlers.Services>()
    yield* router.add("GET", "/health", answer(Effect.provideContext(SystemHandlers.health, context), SystemApi.Health, SystemApi.HealthUnavailable))
    yield* router.add("GET", "/ready", answer(Effect.provideContext(SystemHandlers.ready, context), SystemApi.Ready, SystemApi.NotReady))
  })),
  Metrics.layer,
  ErrorRendering.layer
)
