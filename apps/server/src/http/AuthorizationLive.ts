import { Effect, Layer, Option, Redacted } from "effect"
import { HttpServerRequest, type HttpServerResponse } from "effect/http"
import { ApiError, Authorization } from "@herald/api"
import { ApiKeys, IdempotencyKeys, RateLimiter, Sessions } from "@herald/core"
import * as Idempotency from "./Idempotency.ts"
import * as SessionAuth from "./SessionAuth.ts"
import * as NodeServer from "../internal/nodeServer.ts"
import { PublicUrl } from "../PublicUrl.ts"

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

// Answering an assistant's OAuth request, or disconnecting one's own assistant, changes nothing in the
// workspace: a viewer may do both (the handlers check whose grant it is).
const personalPaths = /^\/api\/v1\/oauth\//

/** A viewer's key or session reads: any other method is refused before the handler runs. */
const viewerReads = (principal: { readonly role: ApiKeys.Principal["role"] }, actor: "key" | "session") =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    principal.role === "viewer" && request.method !== "GET" && request.method !== "HEAD" &&
      !(actor === "session" && personalPaths.test(request.url))
      ? Effect.fail(new ApiError.Forbidden({ message: `This ${actor} acts for a viewer, who can read but not change anything` }))
      : Effect.void)

/** The key of an `Authorization: Bearer <key>` header (the scheme in any case, RFC 7235), or "" when there is none. */
export const bearerKey = (request: HttpServerRequest.HttpServerRequest): string =>
  /^Bearer +(.+?)\s*$/i.exec(request.headers["authorization"] ?? "")?.[1] ?? ""

// A scheme is named back only when it reads like one (Basic, Digest, Token, ApiKey): never a secret's spelling.
const schemeName = /^[A-Za-z][A-Za-z-]{0,19}$/

/**
 * Why a request carries no bearer key, named as precisely as is cheap: a bare key or another scheme in
 * `Authorization`, or the key in a header or query parameter other APIs use. Never repeats what was sent
 * beyond a scheme's or a name's spelling.
 */
export const whyNoKey = (request: HttpServerRequest.HttpServerRequest): ApiKeys.Unauthenticated => {
  const authorization = (request.headers["authorization"] ?? "").trim()
  if (authorization !== "") {
    const [scheme = "", credentials] = authorization.split(/\s+/, 2)
    if (scheme.toLowerCase() === "bearer") return new ApiKeys.Unauthenticated({ reason: "missing" })
    // A single word is a credential without a scheme: a key, never repeated back.
    if (credentials === undefined) return new ApiKeys.Unauthenticated({ reason: "not_bearer" })
    return schemeName.test(scheme)
      ? new ApiKeys.Unauthenticated({ reason: "other_scheme", sent: scheme })
      : new ApiKeys.Unauthenticated({ reason: "other_scheme" })
  }
  for (const header of ["X-API-Key", "Api-Key"]) {
    if (request.headers[header.toLowerCase()] !== undefined) {
      return new ApiKeys.Unauthenticated({ reason: "wrong_header", sent: header })
    }
  }
  const query = new URLSearchParams(request.url.split("?")[1] ?? "")
  for (const parameter of ["api_key", "apiKey", "access_token"]) {
    if (query.has(parameter)) return new ApiKeys.Unauthenticated({ reason: "in_query", sent: parameter })
  }
  return new ApiKeys.Unauthenticated({ reason: "missing" })
}

/**
 * `WWW-Authenticate` for a refusal (RFC 6750, section 3): `error="invalid_token"` only when a key was sent,
 * and always the message as `error_description`, so a client that shows only the header still tells its
 * user how to authenticate. The description is narrowed to the characters RFC 6750 allows there.
 */
export const challenge = (
  refused: { readonly message: string; readonly noToken: boolean },
  resourceMetadata?: string
) => {
  const description = refused.message.replace(/"/g, "'").replace(/\\/g, "/").replace(/[^\x20-\x7E]/g, "?")
  // `resource_metadata` (RFC 9728, section 5.1) starts an OAuth client's discovery: on `/api/mcp` only.
  const metadata = resourceMetadata === undefined ? "" : `, resource_metadata="${resourceMetadata}"`
  return `Bearer realm="herald"${metadata}${refused.noToken ? "" : `, error="invalid_token"`}, error_description="${description}"`
}

/** A request without a valid key: counted against its address, then `unauthorized` with `WWW-Authenticate`. */
export const refuse = (
  rateLimiter: RateLimiter.RateLimiter["Service"],
  refused: { readonly message: string; readonly noToken: boolean },
  resourceMetadata?: string
) =>
  Effect.gen(function*() {
    // Requests without a valid key are counted by client address, so guessing keys is rate limited too.
    const request = yield* HttpServerRequest.HttpServerRequest
    const address = Option.getOrElse(request.remoteAddress, () => "unknown")
    yield* limit(rateLimiter, `address:${address}`)
    yield* withHeaders({ "www-authenticate": challenge(refused, resourceMetadata) })
    return yield* new ApiError.Unauthorized({ message: refused.message })
  })

/** The principal of a request's bearer key, or the refusal that says what is wrong with what it sent. */
export const authenticate = (
  apiKeys: ApiKeys.ApiKeys["Service"],
  rateLimiter: RateLimiter.RateLimiter["Service"],
  key: string,
  resourceMetadata?: string
) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    (key === "" ? Effect.fail(whyNoKey(request)) : apiKeys.authenticate(key)).pipe(
      Effect.catchTag("SqlError", Effect.die),
      Effect.catchTag("Unauthenticated", (refused) => refuse(rateLimiter, refused, resourceMetadata))
    ))

export const layer = Layer.effect(
  Authorization.Authorization,
  Effect.gen(function*() {
    const apiKeys = yield* ApiKeys.ApiKeys
    const rateLimiter = yield* RateLimiter.RateLimiter
    const idempotencyKeys = yield* IdempotencyKeys.IdempotencyKeys
    const sessions = yield* Sessions.Sessions
    const publicUrl = yield* PublicUrl
    const sessionRefused = new Sessions.SessionRefused()

    /** A request with a bearer key (or neither a key nor a cookie): as before sessions existed. */
    const bearerRequest = <E, R>(httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>, key: string) =>
      authenticate(apiKeys, rateLimiter, key).pipe(
        Effect.flatMap((principal) =>
          Effect.andThen(
            Effect.andThen(limit(rateLimiter, `key:${principal.keyId}`), viewerReads(principal, "key")),
            Idempotency.run(
              idempotencyKeys,
              principal.workspaceId,
              Effect.provideService(httpEffect, Authorization.CurrentPrincipal, { ...principal, sessionId: null, personId: null })
            )
          ))
      )

    return Authorization.Authorization.of({
      // HttpApi tries the schemes in order and sends the last one's failure, so the key and the cookie are both
      // checked in `session`, tried last; `bearer` (first, for the docs page) steps aside without effect.
      bearer: () => Effect.fail(new ApiError.Unauthorized({ message: sessionRefused.message })),
      session: (httpEffect, { credential }) =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
          const token = Redacted.value(credential)
          // The cookie counts only when no Authorization header is sent: a key, when sent, always wins.
          if (request.headers["authorization"] !== undefined || token === "") {
            return bearerRequest(httpEffect, bearerKey(request))
          }
          return sessions.authenticate(token).pipe(
            Effect.catchTag("SqlError", Effect.die),
            Effect.catchTag("SessionRefused", (refused) =>
              Effect.andThen(
                limit(rateLimiter, `address:${Option.getOrElse(request.remoteAddress, () => "unknown")}`),
                Effect.fail(new ApiError.Unauthorized({ message: refused.message }))
              )),
            Effect.flatMap((session) =>
              SessionAuth.csrf(publicUrl, session.csrfToken).pipe(
                Effect.andThen(limit(rateLimiter, `person:${session.personId}`)),
                Effect.andThen(viewerReads(session, "session")),
                Effect.andThen(Idempotency.run(
                  idempotencyKeys,
                  session.workspaceId,
                  Effect.provideService(httpEffect, Authorization.CurrentPrincipal, {
                    workspaceId: session.workspaceId,
                    keyId: null,
                    sessionId: session.sessionId,
                    personId: session.personId,
                    memberId: session.memberId,
                    role: session.role
                  })
                ))
              ))
          )
        })
    })
  })
)
