import { Option, Schema } from "effect"
import { HttpServerRequest, HttpServerResponse } from "effect/http"
import { ApiError } from "@herald/api"
import { page } from "../internal/page.ts"
import { corsHeaders } from "./OAuthDiscovery.ts"

// The OAuth endpoints' errors as OAuth says, whatever layer made them (issue 30): the text rule, the router's
// 405, a body too large, a storage fault or a defect answer the token, registration and revocation endpoints
// `{ error, error_description }` (RFC 6749 section 5.2, RFC 7591 section 3.2.2, RFC 7009 section 2.2.1), which
// clients parse, and `/authorize`, which a person's browser opens, a page. Their own refusals are already in
// that shape (OAuthServer.ts); what the other layers answered in Herald's shape is translated here, status,
// `Retry-After` and `Allow` kept.

/** The methods of each OAuth endpoint, so a wrong one is answered 405 with `Allow`. */
export const methods: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ["/register", new Set(["POST", "OPTIONS"])],
  ["/token", new Set(["POST", "OPTIONS"])],
  ["/revoke", new Set(["POST", "OPTIONS"])],
  ["/authorize", new Set(["GET"])]
])

const pathOf = (request: HttpServerRequest.HttpServerRequest) => request.url.split("?")[0]!

/** OAuth's error code for Herald's: the RFCs name no code for a fault of the server at these endpoints. */
const errorFor = (path: string, code: ApiError.Code): string => {
  switch (code) {
    case "unauthorized":
      return "invalid_client"
    case "rate_limited":
      return "rate_limited"
    case "unavailable":
      return "temporarily_unavailable"
    case "internal":
    case "insufficient_storage":
      return "server_error"
    default:
      // A registration's body is its client's metadata (RFC 7591, section 3.2.2).
      return path === "/register" && code === "invalid" ? "invalid_client_metadata" : "invalid_request"
  }
}

const HeraldError = Schema.Struct({ error: Schema.Struct({ code: Schema.Literals(ApiError.codes), message: Schema.String }) })
const decodeHeraldError = Schema.decodeUnknownOption(Schema.fromJsonString(HeraldError))

const textOf = (response: HttpServerResponse.HttpServerResponse): string | undefined => {
  const body = response.body
  if (body._tag !== "Uint8Array" || !body.contentType.startsWith("application/json")) return undefined
  return body.text ?? new TextDecoder().decode(body.body)
}

// Kept from the answer being translated: what tells the client when to come back or what to send instead.
const keptHeaders = ["retry-after", "allow", "www-authenticate"] as const

/**
 * The answer an OAuth endpoint gives for an error answer in Herald's shape; any other answer, and any answer
 * of another path, as it is.
 */
export const translate = (
  request: HttpServerRequest.HttpServerRequest,
  response: HttpServerResponse.HttpServerResponse
): HttpServerResponse.HttpServerResponse => {
  const path = pathOf(request)
  if (response.status < 400 || !methods.has(path)) return response
  const text = textOf(response)
  const found = text === undefined ? Option.none() : decodeHeraldError(text)
  if (Option.isNone(found)) return response
  const { code, message } = found.value.error
  const headers: Record<string, string> = {}
  for (const name of keptHeaders) {
    const value = response.headers[name]
    if (value !== undefined) headers[name] = value
  }
  if (path === "/authorize") {
    return HttpServerResponse.html(page("Herald cannot go on with this sign-in", message)).pipe(
      HttpServerResponse.setStatus(response.status),
      HttpServerResponse.setHeaders(headers)
    )
  }
  return HttpServerResponse.jsonUnsafe({ error: errorFor(path, code), error_description: message }, {
    status: response.status,
    headers: { ...corsHeaders, ...headers, "cache-control": "no-store" }
  })
}
