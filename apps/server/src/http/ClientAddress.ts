import { Context, Effect, Option } from "effect"
import { HttpServerRequest } from "effect/http"
import { ClientAddress } from "@herald/core"

// The one place a request's client address is read (decision 0059): what sign-in attempts, requests without
// a valid key and the OAuth endpoints are counted against, and what the sessions list shows. Behind the
// operator's trusted proxies it comes from `X-Forwarded-For`; otherwise from the socket.

/** `HERALD_TRUSTED_PROXIES`, as the settings read it (Main provides it); none by default. */
export const TrustedProxies = Context.Reference<ClientAddress.TrustedProxies>(
  "@herald/server/http/ClientAddress/TrustedProxies",
  { defaultValue: () => ClientAddress.noProxies }
)

/** The request's client address, whole; null when the socket has none. */
export const address: Effect.Effect<string | null, never, HttpServerRequest.HttpServerRequest> = Effect.flatMap(
  HttpServerRequest.HttpServerRequest,
  (request) =>
    Effect.map(TrustedProxies, (trusted) =>
      ClientAddress.resolve(trusted, Option.getOrUndefined(request.remoteAddress), request.headers["x-forwarded-for"]) ?? null)
)

/** What the client's attempts are counted under: its address, an IPv6 one by its /64; `unknown` when there is none. */
export const rateLimitGroup = Effect.map(address, (found) => found === null ? "unknown" : ClientAddress.rateLimitGroup(found))

/** The client's rate-limit subject for the RateLimiter. */
export const subject = Effect.map(rateLimitGroup, (group) => `address:${group}`)
