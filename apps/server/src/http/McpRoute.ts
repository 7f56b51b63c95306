import { ByteSize, Effect, Layer, Schema } from "effect"
import { HttpIncomingMessage, HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { ApiError } from "@herald/api"
import { ApiKeys, IdempotencyKeys, Networks, OAuth, RateLimiter } from "@herald/core"
import { Prompts, Resources, Server, Tools } from "@herald/mcp"
import { PublicUrl } from "../PublicUrl.ts"
import { authenticate, bearerKey, limit, refuse } from "./AuthorizationLive.ts"
import * as NetworksHandlers from "./NetworksHandlers.ts"
import * as OAuthDiscovery from "./OAuthDiscovery.ts"
import * as OAuthServer from "./OAuthServer.ts"

// `/api/mcp`: the MCP server for AI assistants (reference, "MCP server"), Streamable HTTP and stateless. The
// `Origin` is checked first, then the bearer key before the transport, as for REST (401 in the REST error
// shape, with `WWW-Authenticate`), and every request counts against the key's REST rate limit.

/**
 * The largest body read: a 30 MB image is 40 MB of base64, plus the JSON-RPC around it. Everything else an
 * assistant sends is small.
 */
const maxBodyBytes = 42 * 1024 * 1024
const maxBody = ByteSize.bytes(maxBodyBytes)

const errorJson = (status: number, error: ApiError.Unauthorized | ApiError.RateLimited | ApiError.Invalid | ApiError.TooLarge) =>
  HttpServerResponse.jsonUnsafe(
    ApiError.body(
      error._tag === "Unauthorized"
        ? "unauthorized"
        : error._tag === "RateLimited"
        ? "rate_limited"
        : error._tag === "TooLarge"
        ? "too_large"
        : "invalid",
      error.message
    ),
    { status }
  )

/** JSON-RPC errors for what never reaches the transport (the shape the SDK's own answers have). */
const rpcError = (status: number, code: number, message: string, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe({ jsonrpc: "2.0", error: { code, message }, id: null }, { status, headers })

/**
 * A request whose `Origin` is another site's: a browser sent it for a page that is not Herald's, as a page
 * that rebinds its own name to Herald's address does. "Servers MUST validate the Origin header on all
 * incoming connections to prevent DNS rebinding attacks. If the Origin header is present and invalid,
 * servers MUST respond with HTTP 403 Forbidden" (MCP 2025-11-25, "Transports", security warning,
 * https://modelcontextprotocol.io/specification/2025-11-25/basic/transports, read 2026-12-01). Clients
 * outside a browser send none, and a browser client served from another site cannot work with Herald anyway
 * (`/api/mcp` sends no CORS headers, and a key in `Authorization` needs a preflight): so there is no list of
 * other origins to allow (decision 0061).
 */
const foreignOrigin = (request: HttpServerRequest.HttpServerRequest, ownOrigin: string) => {
  const origin = request.headers["origin"]
  return origin !== undefined && origin !== ownOrigin
}

const isToolCall = (body: unknown) =>
  typeof body === "object" && body !== null && !Array.isArray(body) && (body as { method?: unknown }).method === "tools/call"

/**
 * Who an MCP request acts as: an OAuth access token's member, marked as an assistant so that its posts may
 * wait for approval (decisions 0045 and 0048), or an API key's principal, with the rate-limit subject each
 * counts against. A refusal's challenge names the resource metadata, which
 * starts an OAuth client's sign-in.
 */
const caller = Effect.fnUntraced(function*(
  request: HttpServerRequest.HttpServerRequest,
  rateLimiter: RateLimiter.RateLimiter["Service"],
  publicUrl: string
) {
  const credential = bearerKey(request)
  const resourceMetadata = OAuthDiscovery.resourceMetadataUrl(publicUrl)
  if (OAuth.isAccessToken(credential)) {
    const oauth = yield* OAuth.OAuth
    const member = yield* oauth.authenticate(credential).pipe(
      Effect.catchTag("TokenRefused", (refused) => refuse(rateLimiter, { message: refused.message, noToken: false }, resourceMetadata))
    )
    return {
      workspaceId: member.workspaceId,
      actor: { memberId: member.memberId, role: member.role, assistant: { publishesDirectly: member.publishesDirectly } },
      subject: `grant:${member.grantId}`
    }
  }
  const principal = yield* authenticate(yield* ApiKeys.ApiKeys, rateLimiter, credential, resourceMetadata)
  return {
    workspaceId: principal.workspaceId,
    actor: { memberId: principal.memberId, role: principal.role },
    subject: `key:${principal.keyId}`
  }
})

/** What the server offers every caller: its tools, resources, prompts and instructions, and the tools' idempotency store. */
type Offer = Pick<Server.Exchange, "tools" | "resources" | "prompts" | "instructions" | "idempotencyKeys">

const handle = (offer: Offer, ownOrigin: string) =>
  Effect.fnUntraced(function*(request: HttpServerRequest.HttpServerRequest) {
    if (foreignOrigin(request, ownOrigin)) {
      return rpcError(403, -32000, "Forbidden: the Origin header is not this service's own")
    }
    const rateLimiter = yield* RateLimiter.RateLimiter
    const publicUrl = yield* PublicUrl
    const principal = yield* caller(request, rateLimiter, publicUrl)
    // A stateless server keeps no stream for GET and no session for DELETE to end (MCP, "Streamable HTTP").
    if (request.method !== "POST") {
      return rpcError(405, -32000, "Method not allowed: this MCP server is stateless and answers POST only", { allow: "POST" })
    }
    const limited = yield* Effect.flip(limit(rateLimiter, principal.subject)).pipe(
      Effect.map((refused) => new Tools.ToolFailure({ code: "rate_limited", message: refused.message })),
      Effect.option
    )
    const text = yield* request.text.pipe(
      Effect.provideService(HttpIncomingMessage.MaxBodySize, maxBody),
      Effect.mapError(() =>
        new ApiError.TooLarge({ message: `The request body is larger than the limit of ${maxBodyBytes} bytes` })
      )
    )
    const body = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Unknown))(text)
    if (body._tag === "None") return rpcError(400, -32700, "Parse error: the body is not JSON")
    // JSON-RPC 2.0 ("Batch"): an empty array is answered with one Invalid Request error, id null; the
    // Streamable HTTP transport answers input it cannot accept with an HTTP error status, 400 (decision 0068).
    if (Array.isArray(body.value) && body.value.length === 0) {
      return rpcError(400, -32600, "Invalid Request: the batch is empty; send a JSON-RPC request object")
    }
    // Over the limit: a tool call answers it as the tool's failure, so the assistant reads why and when to
    // try again; anything else (initialize, tools/list) is refused like a REST request.
    if (limited._tag === "Some" && !isToolCall(body.value)) {
      return yield* new ApiError.RateLimited({ message: limited.value.message })
    }
    const web = yield* HttpServerRequest.toWeb(request).pipe(Effect.orDie)
    const context = yield* Effect.context<never>()
    const response = yield* Server.answer({
      request: new Request(web.url, { method: "POST", headers: web.headers }),
      body: body.value,
      ...offer,
      caller: { workspaceId: principal.workspaceId, publicUrl, actor: principal.actor },
      refused: limited._tag === "Some" ? limited.value : undefined,
      run: Effect.runPromiseWith(context)
    })
    return HttpServerResponse.fromWeb(response)
  }, (effect) =>
    effect.pipe(
      Effect.catchTags({
        Unauthorized: (error) => Effect.succeed(errorJson(401, error)),
        RateLimited: (error) => Effect.succeed(errorJson(429, error)),
        TooLarge: (error) => Effect.succeed(errorJson(413, error))
      })
    ))

/**
 * The route, for every method (GET and DELETE are answered 405 once the key is checked), and the OAuth
 * server an MCP client signs in through after a 401 (metadata, registration, authorization, tokens).
 */
export const layer = Layer.mergeAll(
  Layer.unwrap(Effect.gen(function*() {
    const offered = yield* NetworksHandlers.offered
    const tools = yield* Tools.make({ networks: offered })
    const networks = yield* Networks.Networks
    const ownOrigin = new URL(yield* PublicUrl).origin
    return HttpRouter.add("*", "/api/mcp", handle({
      tools,
      resources: yield* Resources.make(offered),
      prompts: Prompts.make(tools),
      idempotencyKeys: yield* IdempotencyKeys.IdempotencyKeys,
      instructions: Server.instructions(networks.all)
    }, ownOrigin))
  })),
  OAuthDiscovery.layer,
  OAuthServer.layer
)
