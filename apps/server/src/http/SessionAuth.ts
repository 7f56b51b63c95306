import { Effect, Option } from "effect"
import { HttpEffect, HttpServerRequest, HttpServerResponse } from "effect/http"
import { ApiError, Authorization } from "@herald/api"
import { Sessions } from "@herald/core"
import * as ClientAddress from "./ClientAddress.ts"

// The console's session cookie and its CSRF rule (decision 0021). A cookie-authenticated change must come
// from the service's own origin and carry the session's CSRF token; SameSite=Lax alone leaves old browsers
// and same-site subdomains open.

const safeMethods = new Set(["GET", "HEAD", "OPTIONS"])

/** `Set-Cookie` for a session: HttpOnly, SameSite=Lax, Path=/, Secure when the service is reached over https. */
export const setCookie = (publicUrl: string, token: string, maxAgeSeconds: number) =>
  HttpEffect.appendPreResponseHandler((_request, response) =>
    Effect.succeed(HttpServerResponse.setCookieUnsafe(response, Authorization.sessionCookie, token, {
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: publicUrl.startsWith("https:"),
      maxAge: `${maxAgeSeconds} seconds`
    })))

export const clearCookie = (publicUrl: string) =>
  HttpEffect.appendPreResponseHandler((_request, response) =>
    Effect.succeed(HttpServerResponse.setCookieUnsafe(response, Authorization.sessionCookie, "", {
      path: "/",
      httpOnly: true,
      sameSite: "lax",
      secure: publicUrl.startsWith("https:"),
      maxAge: "0 seconds"
    })))

/** The client a session is started from, as the sessions list shows it. */
export const client = Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
  Effect.map(ClientAddress.address, (address): Sessions.Client => ({ userAgent: request.headers["user-agent"] ?? null, address })))

/** Login CSRF: a request that signs someone in must come from the service's own pages. */
export const sameOrigin = (publicUrl: string) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const origin = request.headers["origin"]
    if (origin === new URL(publicUrl).origin) return Effect.void
    return Effect.fail(new ApiError.Forbidden({
      message: origin === undefined
        ? "Cross-site request refused: the Origin header is missing"
        : "Cross-site request refused: the Origin header is not this service's own"
    }))
  })

/** Origin and `X-CSRF-Token` on a cookie-authenticated change. */
export const csrf = (publicUrl: string, csrfToken: string) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    if (safeMethods.has(request.method)) return Effect.void
    return Effect.andThen(sameOrigin(publicUrl), () => {
      const sent = request.headers["x-csrf-token"]
      if (sent === csrfToken) return Effect.void
      return Effect.fail(new ApiError.Forbidden({
        message: sent === undefined
          ? "The X-CSRF-Token header is missing: send the csrfToken of GET /api/v1/auth/session"
          : "The X-CSRF-Token header does not match this session's csrfToken"
      }))
    })
  })

/** The session of the request's cookie, when a handler (invitation acceptance) may use one. */
export const optionalSession = (sessions: Sessions.Sessions["Service"]) =>
  Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) => {
    const token = request.cookies[Authorization.sessionCookie]
    if (token === undefined || token === "") return Effect.succeed(Option.none<Sessions.Principal>())
    return sessions.authenticate(token).pipe(
      Effect.map(Option.some),
      Effect.catchTag("SessionRefused", () => Effect.succeed(Option.none<Sessions.Principal>())),
      Effect.orDie
    )
  })
