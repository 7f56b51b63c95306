import { Effect } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { ApiError } from "@herald/api"
import { ApiKeys } from "@herald/core"

// An OAuth-capable MCP client (the MCP SDK's StreamableHTTPClientTransport with an auth provider, the
// Inspector, mcp-remote) answers a 401 by discovering OAuth: protected-resource metadata (RFC 9728), then
// authorization-server metadata (RFC 8414, OpenID Connect discovery), then dynamic client registration at the
// default `/register` (MCP, "Authorization"). Herald has no OAuth yet: each of these paths is a 404 in the
// error shape whose message says to use a bearer key, so whatever the client ends up showing is Herald's
// advice and not a bare "No route" (docs/decisions/0017-authentication-messages.md).

/** What every discovery path answers. */
export const message = `Herald has no OAuth authorization yet. ${ApiKeys.howToAuthenticate}`

const notFound = Effect.sync(() => HttpServerResponse.jsonUnsafe(ApiError.body("not_found", message), { status: 404 }))

/** The paths MCP clients try; a `.well-known` name's `/*` also takes the name alone, without the resource's path. */
export const paths = [
  "/.well-known/oauth-protected-resource/*",
  "/.well-known/oauth-authorization-server/*",
  "/.well-known/openid-configuration/*",
  "/register",
  "/authorize",
  "/token"
] as const

export const layer = HttpRouter.addAll(paths.map((path) => HttpRouter.route("*", path, notFound)))
