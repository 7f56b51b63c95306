import { Clock, Context, Effect, Layer, Metric, Redacted } from "effect"
import { HttpServerRequest, type HttpServerResponse } from "effect/http"
import { ApiError, Authorization } from "@herald/api"
import { ApiKeys, IdempotencyKeys, Metrics, RateLimiter, Sessions } from "@herald/core"
import { Permissions } from "@herald/domain"
import { withHeaders } from "./AnswerHeaders.ts"
import * as ClientAddress from "./ClientAddress.ts"
import * as Idempotency from "./Idempotency.ts"
import * as SessionAuth from "./SessionAuth.ts"
import { PublicUrl } from "../PublicUrl.ts"

// The rate-limit headers follow the IETF draft "RateLimit header fields for HTTP": the policy (quota per
// window) and the current state (remaining, seconds to reset) ride on every answer, errors included.
const rateLimitHeaders = (decision: RateLimiter.Decision) => ({
  "ratelimit-policy": policyOf(decision.limit),
  "ratelimit": `"default";r=${decision.remaining};t=${decision.resetSeconds}`
})

// The policy is the same on every answer of a process (its limit is a setting): spelled once.
let policy = { limit: -1, header: "" }
const policyOf = (limit: number) => {
  if (policy.limit !== limit) policy = { limit, header: `"default";q=${limit};w=60` }
  return policy.header
}

/**
 * Counts a request against its subject and refuses it when over the limit. Shared by REST and (through the
 * same services) MCP, so one key has one budget. Runs on every request, so it is plain code.
 */
export const limit = (
  rateLimiter: RateLimiter.RateLimiter["Service"],
  subject: string
): Effect.Effect<void, ApiError.RateLimited, HttpServerRequest.HttpServerRequest> =>
  Effect.flatMap(rateLimiter.consume(subject), (decision) =>
    decision.allowed ? withHeaders(Effect.void, rateLimitHeaders(decision)) : refuseOverLimit(decision))

/** The answer to a request over its limit: counted, with the headers that say when to try again. */
const refuseOverLimit = (decision: RateLimiter.Decision) =>
  withHeaders(
    Effect.andThen(
      Metric.update(Metrics.rateLimitRefusals, 1),
      Effect.fail(
        new ApiError.RateLimited({
          message: `Rate limit of ${decision.limit} requests per minute reached; try again in ${decision.resetSeconds} seconds`
        })
      )
    ),
    { ...rateLimitHeaders(decision), "retry-after": String(decision.resetSeconds) }
  )

// What a person does to their own sign-in changes nothing in the workspace, so a viewer's session may do it
// too: answering an assistant's OAuth request or disconnecting one's own assistant (the handlers check whose
// grant it is), signing out, their password and name, switching workspace, ending their own sessions.
const personalPaths = /^\/api\/v1\/(?:oauth\/|auth\/(?:sign-out|workspace|password|profile|sessions\/[^/?#]+)(?:[?#]|$))/

/** The refusal of a viewer's change, before a handler runs (and by one, for a GET that changes something). */
export const viewerRefusal = (actor: "key" | "session") =>
  new ApiError.Forbidden({ message: `This ${actor} acts for a viewer, who can read but not change anything` })

/**
 * The action of the permission table a request asks for: a read, a change to a person's own sign-in (through
 * a session only: a key has no person), or a change to the workspace.
 */
export const actionOf = (request: { readonly method: string; readonly url: string }, actor: "key" | "session"): Permissions.Action =>
  request.method === "GET" || request.method === "HEAD"
    ? "read"
    : actor === "session" && personalPaths.test(request.url)
    ? "manageOwnSignIn"
    : "change"

/** Whether the table lets a key's or session's role make the request, before a handler runs. */
export const mayRequest = (
  role: ApiKeys.Principal["role"],
  request: { readonly method: string; readonly url: string },
  actor: "key" | "session"
) => Permissions.can(role, actionOf(request, actor))

/** A key or session whose role may not make the request (a viewer's change) is refused before the handler runs. */
export const viewerReads = (principal: { readonly role: ApiKeys.Principal["role"] }, actor: "key" | "session") =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
    mayRequest(principal.role, request, actor) ? Effect.void : Effect.fail(viewerRefusal(actor)))

/** The key of an `Authorization: Bearer <key>` header (the scheme in any case, RFC 7235), or "" when there is none. */
export const bearerKey = (request: HttpServerRequest.HttpServerRequest): string => {
  const header = request.headers["authorization"] ?? ""
  // The scheme by pattern, the rest by trimming: `(.+?)\s*$` tried the trailing white space once per character,
  // quadratic in a header of spaces (issue 28).
  const scheme = /^Bearer +/i.exec(header)
  return scheme === null ? "" : header.slice(scheme[0].length).trimEnd()
}

// A scheme is named back only when it reads like one (Basic, Digest, Token, ApiKey): never a secret's spelling.
const schemeName = /^[A-Za-z][A-Za-z-]{0,19}$/

/**
 * Why a request carries no bearer key, named as precisely as is cheap: a bare key or another scheme in
 * `Authorization`, or the key in a header or query parameter other APIs use. Never repeats what was sent
 * beyond a scheme's or a name's spelling.
 */
const whyNoKey = (request: HttpServerRequest.HttpServerRequest): ApiKeys.Unauthenticated => {
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
const challenge = (
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
    yield* limit(rateLimiter, yield* ClientAddress.subject)
    return yield* withHeaders(
      Effect.fail(new ApiError.Unauthorized({ message: refused.message })),
      { "www-authenticate": challenge(refused, resourceMetadata) }
    )
  })

/** The principal of a request's bearer key, or the refusal that says what is wrong with what it sent. */
export const authenticate = (
  apiKeys: ApiKeys.ApiKeys["Service"],
  rateLimiter: RateLimiter.RateLimiter["Service"],
  key: string,
  resourceMetadata?: string
) =>
  Effect.catch(
    key === "" ? Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => Effect.fail(whyNoKey(request))) : apiKeys.authenticate(key),
    (error) => refuse(rateLimiter, error, resourceMetadata)
  )

/** The session of a console cookie, or `unauthorized`, counted against the client's address like a bad key. */
export const authenticateSession = (
  sessions: Sessions.Sessions["Service"],
  rateLimiter: RateLimiter.RateLimiter["Service"],
  token: string
) =>
  sessions.authenticate(token).pipe(
    Effect.catchTag("SessionRefused", (refused) =>
      Effect.andThen(
        Effect.flatMap(ClientAddress.subject, (subject) => limit(rateLimiter, subject)),
        Effect.fail(new ApiError.Unauthorized({ message: refused.message }))
      ))
  )

export const layer = Layer.effect(
  Authorization.Authorization,
  Effect.gen(function*() {
    const apiKeys = yield* ApiKeys.ApiKeys
    const rateLimiter = yield* RateLimiter.RateLimiter
    const idempotencyKeys = yield* IdempotencyKeys.IdempotencyKeys
    const sessions = yield* Sessions.Sessions
    const publicUrl = yield* PublicUrl
    const sessionRefused = new Sessions.SessionRefused()
    // Made once: a request without an Authorization header passes `bearer` on its way to `session`, and an
    // error's stack trace cost a tenth of an authenticated request's CPU when it was made each time.
    const bearerStepsAside = Effect.fail(new ApiError.Unauthorized({ message: sessionRefused.message }))
    // A cached key's principal is the same object on each of its requests, and so is what handlers see.
    const keyPrincipals = new WeakMap<ApiKeys.Principal, Authorization.CurrentPrincipal["Service"]>()
    const keyPrincipal = (principal: ApiKeys.Principal) => {
      let current = keyPrincipals.get(principal)
      if (current === undefined) {
        current = { ...principal, sessionId: null, personId: null }
        keyPrincipals.set(principal, current)
      }
      return current
    }
    // Why `bearer` refused a request, for `session` to answer the same without counting it again.
    const bearerRefusals = new WeakMap<object, unknown>()

    /**
     * A request whose key is known, with its rate-limit decision: refused over the limit or for a viewer's
     * change, else handed to the handler as the key's principal (under its Idempotency-Key, when it sends one).
     */
    const admit = <E, R>(
      httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
      request: HttpServerRequest.HttpServerRequest,
      principal: ApiKeys.Principal,
      decision: RateLimiter.Decision
    ): Effect.Effect<
      HttpServerResponse.HttpServerResponse,
      E | ApiError.RateLimited | ApiError.Forbidden | ApiError.Invalid | ApiError.Conflict,
      Exclude<R, Authorization.CurrentPrincipal> | HttpServerRequest.HttpServerRequest
    > => {
      if (!decision.allowed) return refuseOverLimit(decision)
      if (!mayRequest(principal.role, request, "key")) return withHeaders(Effect.fail(viewerRefusal("key")), rateLimitHeaders(decision))
      const handled = Effect.provideService(httpEffect, Authorization.CurrentPrincipal, keyPrincipal(principal))
      return withHeaders(
        request.headers["idempotency-key"] === undefined ? handled : Idempotency.run(idempotencyKeys, principal.workspaceId, handled),
        rateLimitHeaders(decision)
      )
    }

    /** A request with a bearer key (or neither a key nor a cookie): the key, its rate limit, then `admit`. */
    const bearerRequest = <E, R>(
      httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
      request: HttpServerRequest.HttpServerRequest
    ) =>
      Effect.flatMap(authenticate(apiKeys, rateLimiter, bearerKey(request)), (principal) =>
        Effect.flatMap(
          rateLimiter.consume(`key:${principal.keyId}`),
          (decision) => admit(httpEffect, request, principal, decision)
        ))

    /**
     * Nearly every request comes with a key this process has cached and a permit it holds: that path reads
     * both in plain code, and takes the effects of `bearerRequest` only when it must wait for the database.
     */
    const bearer = <E, R>(httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
      Effect.withFiber((fiber) => {
        const request = Context.getUnsafe(fiber.context, HttpServerRequest.HttpServerRequest)
        if (request.headers["authorization"] === undefined) return bearerStepsAside
        const now = fiber.getRef(Clock.Clock).currentTimeMillisUnsafe()
        const principal = apiKeys.cached(bearerKey(request), now)
        const decision = principal === undefined ? undefined : rateLimiter.consumeNow(`key:${principal.keyId}`, now)
        const answered = principal !== undefined && decision !== undefined
          ? admit(httpEffect, request, principal, decision)
          : bearerRequest(httpEffect, request)
        return Effect.tapError(answered, (error) => Effect.sync(() => bearerRefusals.set(request.source, error)))
      })

    return Authorization.Authorization.of({
      // HttpApi tries the schemes in order and answers with the last one's failure. A request with an
      // Authorization header is answered by `bearer`, first (for the docs page too); should it refuse, `session`
      // gives the same refusal again. Without the header, `bearer` steps aside for `session`.
      bearer,
      session: (httpEffect, { credential }) =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
          const token = Redacted.value(credential)
          // The cookie counts only when no Authorization header is sent: a key, when sent, always wins.
          if (request.headers["authorization"] !== undefined) {
            const refused = bearerRefusals.get(request.source)
            return refused === undefined ? bearerRequest(httpEffect, request) : Effect.fail(refused as ApiError.Unauthorized)
          }
          if (token === "") return bearerRequest(httpEffect, request)
          return authenticateSession(sessions, rateLimiter, token).pipe(
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
