import { Effect, Layer, Option, Schema } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import type { ApiError } from "@herald/api"
import { OAuth, RateLimiter } from "@herald/core"
import { SafeText } from "@herald/domain"
import { page } from "../internal/page.ts"
import { PublicUrl } from "../PublicUrl.ts"
import { limit } from "./AuthorizationLive.ts"
import * as ClientAddress from "./ClientAddress.ts"
import { corsHeaders, document, preflight } from "./OAuthDiscovery.ts"

// The OAuth 2.1 endpoints of Herald's authorization server for `/api/mcp` (decision 0045): dynamic client
// registration (RFC 7591), the authorization request (kept for the person's consent in the console), the
// token endpoint and revocation (RFC 7009). Errors have OAuth's shape `{ error, error_description }`, which
// clients parse, not Herald's. Each handler calls one method of the OAuth service.

/** The registration's body, leniently: what clients send beyond these fields is ignored (RFC 7591, section 2). */
const Registration = Schema.Struct({
  client_name: Schema.optional(Schema.Unknown),
  redirect_uris: Schema.optional(Schema.Unknown)
})
const decodeRegistration = Schema.decodeUnknownOption(Schema.fromJsonString(Registration))

const oauthError = (error: string, description: string, status = 400) =>
  document({ error, error_description: description }, status, { "cache-control": "no-store" })

/** Unauthenticated endpoints are counted by client address, as refused keys are. */
const limited = (rateLimiter: RateLimiter.RateLimiter["Service"]) =>
  Effect.flatMap(ClientAddress.subject, (subject) => limit(rateLimiter, subject))

/** The challenge a refused Basic client is answered with (RFC 6749 section 5.2, RFC 7617 section 2). */
const basicChallenge = { "www-authenticate": `Basic realm="Herald", charset="UTF-8"` }

/**
 * A form-encoded body (RFC 6749, appendix B), one value per name. A client that sends its id the
 * `client_secret_basic` way (HTTP Basic) has it read from there: Herald issues no secrets, so only the id counts.
 * The decoded id is under the text rule as the body is (TextRule.ts cannot see inside the header).
 */
// A body that cannot be read (too large, cut off) dies into ErrorRendering, which answers it 413 or 400.
const form = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
  Effect.flatMap(Effect.orDie(request.text), (text): Effect.Effect<Record<string, string>, OAuth.OAuthRefused> => {
    const fields = Object.fromEntries(new URLSearchParams(text))
    const basic = /^Basic +([A-Za-z0-9+/=]+)\s*$/i.exec(request.headers["authorization"] ?? "")?.[1]
    if (fields["client_id"] !== undefined || basic === undefined) return Effect.succeed(fields)
    const clientId = Buffer.from(basic, "base64").toString("utf8").split(":")[0] ?? ""
    // Basic's id is form-encoded (RFC 6749, section 2.3.1), which URLSearchParams decodes without throwing.
    const decoded = new URLSearchParams(`id=${clientId.replaceAll("&", "%26")}`).get("id") ?? ""
    const problem = SafeText.problem(decoded)
    if (problem !== undefined) {
      return Effect.fail(new OAuth.OAuthRefused({ error: "invalid_client", description: `The client id in the Authorization header ${problem}` }))
    }
    return Effect.succeed(decoded === "" ? fields : { ...fields, client_id: decoded })
  }))

/** Whether the request authenticates its client with HTTP Basic, for the 401 it is owed when refused. */
const triedBasic = (request: HttpServerRequest.HttpServerRequest) => /^Basic\b/i.test(request.headers["authorization"] ?? "")

const query = (request: HttpServerRequest.HttpServerRequest) =>
  Object.fromEntries(new URLSearchParams(request.url.split("?")[1] ?? ""))

export const layer = Layer.unwrap(Effect.gen(function*() {
  const oauth = yield* OAuth.OAuth
  const rateLimiter = yield* RateLimiter.RateLimiter
  const publicUrl = yield* PublicUrl

  const refusals = <R>(
    effect: Effect.Effect<HttpServerResponse.HttpServerResponse, OAuth.OAuthRefused | ApiError.RateLimited, R>
  ) =>
    effect.pipe(
      Effect.catch((error) =>
        error._tag === "OAuthRefused"
          ? Effect.map(HttpServerRequest.HttpServerRequest, (request) =>
            // A client refused after authenticating with the Authorization header is owed 401 and a challenge.
            error.error === "invalid_client" && triedBasic(request)
              ? HttpServerResponse.setHeaders(oauthError(error.error, error.description, 401), basicChallenge)
              : oauthError(error.error, error.description))
          : error._tag === "RateLimited"
          ? Effect.succeed(oauthError("rate_limited", error.message, 429))
          : Effect.die(error)
      )
    )

  const register = (request: HttpServerRequest.HttpServerRequest) =>
    request.method === "OPTIONS" ? Effect.succeed(preflight) : Effect.gen(function*() {
      yield* limited(rateLimiter)
      const body = decodeRegistration(yield* Effect.orDie(request.text))
      if (Option.isNone(body)) {
        return yield* new OAuth.OAuthRefused({ error: "invalid_client_metadata", description: "The body must be a JSON object" })
      }
      const name = body.value.client_name
      const client = yield* oauth.register({
        clientName: typeof name === "string" ? name : undefined,
        redirectUris: body.value.redirect_uris
      })
      return document({
        client_id: client.id,
        client_name: client.name,
        redirect_uris: client.redirectUris,
        token_endpoint_auth_method: "none",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000)
      }, 201, { "cache-control": "no-store" })
    }).pipe(refusals)

  const authorize = (request: HttpServerRequest.HttpServerRequest) =>
    limited(rateLimiter).pipe(
      Effect.andThen(oauth.authorize(query(request))),
      Effect.map((requestId) => HttpServerResponse.redirect(`${publicUrl}/app/oauth/consent?request=${encodeURIComponent(requestId)}`)),
      Effect.catchTags({
        RateLimited: (refused) =>
          Effect.succeed(HttpServerResponse.html(page("Too many requests", refused.message)).pipe(HttpServerResponse.setStatus(429))),
        AuthorizeUntrusted: (refused) =>
          Effect.succeed(HttpServerResponse.html(page("Herald cannot connect this assistant", refused.description)).pipe(
            HttpServerResponse.setStatus(400)
          )),
        AuthorizeRefused: (refused) => Effect.succeed(HttpServerResponse.redirect(refused.redirectTo))
      })
    )

  const token = (request: HttpServerRequest.HttpServerRequest) =>
    request.method === "OPTIONS" ? Effect.succeed(preflight) : Effect.gen(function*() {
      yield* limited(rateLimiter)
      const issued = yield* oauth.token(yield* form)
      // Tokens are never cached (RFC 6749, section 5.1).
      return document(issued, 200, { "cache-control": "no-store", pragma: "no-cache" })
    }).pipe(refusals)

  const revoke = (request: HttpServerRequest.HttpServerRequest) =>
    request.method === "OPTIONS" ? Effect.succeed(preflight) : Effect.gen(function*() {
      yield* limited(rateLimiter)
      const token = (yield* form)["token"]
      // 200 whatever the token was (RFC 7009, section 2.2): an unknown one tells nothing.
      if (token !== undefined) yield* oauth.revoke(token)
      return HttpServerResponse.empty({ status: 200, headers: corsHeaders })
    }).pipe(refusals)

  return HttpRouter.addAll([
    HttpRouter.route("POST", "/register", register),
    HttpRouter.route("OPTIONS", "/register", register),
    HttpRouter.route("GET", "/authorize", authorize),
    HttpRouter.route("POST", "/token", token),
    HttpRouter.route("OPTIONS", "/token", token),
    HttpRouter.route("POST", "/revoke", revoke),
    HttpRouter.route("OPTIONS", "/revoke", revoke)
  ])
}))
