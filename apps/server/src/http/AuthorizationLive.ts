import { Effect, Layer, Option, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { ApiError, Authorization } from "@herald/api"
import { ApiKeys, IdempotencyKeys, RateLimiter } from "@herald/core"
import * as Idempotency from "./Idempotency.ts"
import * as NodeServer from "../internal/nodeServer.ts"

// The rate-limit headers follow the IETF draft "RateLimit header fields for HTTP": the policy (quota per
// window) and the current state (remaining, seconds to reset) ride on every answer, errors included.
const rateLimitHeaders = (decision: RateLimiter.Decision) => ({
  "ratelimit-policy": `"default";q=${decision.limit};w=60`,
  "ratelimit": `"default";r=${decision.remaining};t=${decision.resetSeconds}`
})

const withHeaders = (headers: Record<string, string>) =>
  Effect.map(HttpServerRequest.HttpServerRequest, (request) => NodeServer.addHeaders(request.source, headers))

/**
 * Counts a request against its subject and refuses it when over the limit. Shared by REST and (through the
 * same services) MCP, so one key has one budget. Runs on every request, so it is plain code.
 */
export const limit = (
  rateLimiter: RateLimiter.RateLimiter["Service"],
  subject: string
): Effect.Effect<void, ApiError.RateLimited, HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(rateLimiter.consume(subject), (decision) => {
    const headers = rateLimitHeaders(decision)
    if (decision.allowed) return withHeaders(headers)
    return Effect.andThen(
      withHeaders({ ...headers, "retry-after": String(decision.resetSeconds) }),
      Effect.fail(
        new ApiError.RateLimited({
          message:
            `Rate limit of ${decision.limit} requests per minute reached; try again in ${decision.resetSeconds} seconds`
        })
      )
    )
  })

/** A viewer's key reads: any other method is refused before the handler runs. */
const viewerReads = (principal: ApiKeys.Principal) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    principal.role === "viewer" && request.method !== "GET" && request.method !== "HEAD"
      ? Effect.fail(new ApiError.Forbidden({ message: "This key acts for a viewer, who can read but not change anything" }))
      : Effect.void)

/** A request without a valid key: counted against its address, then `unauthorized` with `WWW-Authenticate: Bearer`. */
export const refuse = (rateLimiter: RateLimiter.RateLimiter["Service"], refused: ApiKeys.Unauthenticated) =>
  Effect.gen(function*() {
    // Requests without a valid key are counted by client address, so guessing keys is rate limited too.
    const request = yield* HttpServerRequest.HttpServerRequest
    const address = Option.getOrElse(request.remoteAddress, () => "unknown")
    yield* limit(rateLimiter, `address:${address}`)
    yield* withHeaders({
      "www-authenticate": refused.reason === "missing"
        ? `Bearer realm="herald"`
        : `Bearer realm="herald", error="invalid_token"`
    })
    return yield* new ApiError.Unauthorized({ message: refused.message })
  })

export const layer = Layer.effect(
  Authorization.Authorization,
  Effect.gen(function*() {
    const apiKeys = yield* ApiKeys.ApiKeys
    const rateLimiter = yield* RateLimiter.RateLimiter
    const idempotencyKeys = yield* IdempotencyKeys.IdempotencyKeys

    return Authorization.Authorization.of({
      bearer: (httpEffect, { credential }) =>
        apiKeys.authenticate(Redacted.value(credential)).pipe(
          Effect.catchTag("SqlError", Effect.die),
          Effect.catchTag("Unauthenticated", (refused) => refuse(rateLimiter, refused)),
          Effect.flatMap((principal) =>
            Effect.andThen(
              Effect.andThen(limit(rateLimiter, `key:${principal.keyId}`), viewerReads(principal)),
              Idempotency.run(
                idempotencyKeys,
                principal.workspaceId,
                Effect.provideService(httpEffect, Authorization.CurrentPrincipal, principal)
              )
            )
          )
        )
    })
  })
)
