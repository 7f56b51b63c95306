import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerResponse } from "effect/http"
import { OAuth } from "@herald/core"
import { PublicUrl } from "../PublicUrl.ts"

// What an OAuth-capable MCP client (the MCP SDK, the Inspector, mcp-remote, claude.ai's connectors) reads
// after a 401 (MCP, "Authorization"): the protected resource's metadata (RFC 9728), named by the 401's
// `resource_metadata`, then the authorization server's (RFC 8414; also at the OpenID Connect discovery path,
// which clients try too). Herald is both, at its public address (decision 0045).

/** Where the MCP endpoint's resource metadata is: the path the 401's `WWW-Authenticate` names. */
export const resourceMetadataUrl = (publicUrl: string) => `${publicUrl}/.well-known/oauth-protected-resource/api/mcp`

/** Browser-based clients (the Inspector) read these from another origin; nothing here depends on cookies. */
export const corsHeaders = {
  "access-control-allow-origin": "*",
  "access-control-allow-methods": "GET, POST, OPTIONS",
  "access-control-allow-headers": "authorization, content-type, mcp-protocol-version"
}

const protectedResource = (publicUrl: string) => ({
  resource: OAuth.resourceOf(publicUrl),
  authorization_servers: [publicUrl],
  bearer_methods_supported: ["header"],
  scopes_supported: OAuth.scopes,
  resource_name: "Herald"
})

const authorizationServer = (publicUrl: string) => ({
  issuer: publicUrl,
  authorization_endpoint: `${publicUrl}/authorize`,
  token_endpoint: `${publicUrl}/token`,
  registration_endpoint: `${publicUrl}/register`,
  revocation_endpoint: `${publicUrl}/revoke`,
  scopes_supported: OAuth.scopes,
  response_types_supported: ["code"],
  response_modes_supported: ["query"],
  grant_types_supported: ["authorization_code", "refresh_token"],
  code_challenge_methods_supported: ["S256"],
  token_endpoint_auth_methods_supported: ["none"],
  revocation_endpoint_auth_methods_supported: ["none"],
  authorization_response_iss_parameter_supported: true
})

/** A JSON document with CORS; a preflight gets the headers alone. */
export const document = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe(body, { status, headers: { ...corsHeaders, ...headers } })

export const preflight = HttpServerResponse.empty({ status: 204, headers: corsHeaders })

// A `.well-known` name's `/*` also takes the name alone, without a resource's or an issuer's path.
export const layer = Layer.unwrap(Effect.gen(function*() {
  const publicUrl = yield* PublicUrl
  const serve = (body: unknown) => (request: { readonly method: string }) =>
    Effect.succeed(request.method === "OPTIONS" ? preflight : document(body))
  return HttpRouter.addAll([
    HttpRouter.route("*", "/.well-known/oauth-protected-resource/*", serve(protectedResource(publicUrl))),
    HttpRouter.route("*", "/.well-known/oauth-authorization-server/*", serve(authorizationServer(publicUrl))),
    HttpRouter.route("*", "/.well-known/openid-configuration/*", serve(authorizationServer(publicUrl)))
  ])
}))
