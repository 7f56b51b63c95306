import { Effect } from "effect"
import { HttpEffect, type HttpServerRequest, HttpServerResponse } from "effect/http"

// Headers code on the request path decides (the rate-limit state, a `Retry-After`, `Connection: close` for a
// body not worth reading) belong on the request's answer whatever it turns out to be: the handler's success,
// a typed error, or a failure the error middleware renders. Effect's pre-response handler is that hook: it runs
// on the one response the server sends, after every middleware, and each request has its own.

/** `self`, with `headers` added to the answer of the request it runs in (a later addition of a name wins). */
export const withHeaders = <A, E, R>(
  self: Effect.Effect<A, E, R>,
  headers: Record<string, string>
): Effect.Effect<A, E, R | HttpServerRequest.HttpServerRequest> =>
  HttpEffect.withPreResponseHandler(self, (_request, response) => Effect.succeed(HttpServerResponse.setHeaders(response, headers)))
