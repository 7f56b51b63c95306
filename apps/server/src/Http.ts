import { ByteSize, Layer } from "effect"
import { HttpIncomingMessage, HttpRouter } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { AdminApi } from "@herald/api"
import * as AccountsHandlers from "./http/AccountsHandlers.ts"
import * as AdminHandlers from "./http/AdminHandlers.ts"
import * as AuthorizationLive from "./http/AuthorizationLive.ts"
import * as Console from "./http/Console.ts"
import * as ErrorRendering from "./http/ErrorRendering.ts"
import * as MediaFiles from "./http/MediaFiles.ts"
import * as InboxHandlers from "./http/InboxHandlers.ts"
import * as KeysHandlers from "./http/KeysHandlers.ts"
import * as McpRoute from "./http/McpRoute.ts"
import * as NetworkWebhooks from "./http/NetworkWebhooks.ts"
import * as MediaHandlers from "./http/MediaHandlers.ts"
import * as MembersHandlers from "./http/MembersHandlers.ts"
import * as NetworksHandlers from "./http/NetworksHandlers.ts"
import * as OAuthHandlers from "./http/OAuthHandlers.ts"
import * as PostsHandlers from "./http/PostsHandlers.ts"
import * as PublicApi from "./http/PublicApi.ts"
import * as ReviewsHandlers from "./http/ReviewsHandlers.ts"
import * as SessionsHandlers from "./http/SessionsHandlers.ts"
import * as WebhooksHandlers from "./http/WebhooksHandlers.ts"
import * as WorkspaceHandlers from "./http/WorkspaceHandlers.ts"
import * as SystemHandlers from "./http/SystemHandlers.ts"
import * as TextRule from "./http/TextRule.ts"

/** Where the OpenAPI 3.1 document of the public API is served. */
export const openapiPath = "/api/v1/openapi.json"

/**
 * Every public route: the REST API, its OpenAPI document, the offline docs page, the MCP server, error
 * rendering, the text rule, and in the sandbox the network simulators under `/sandbox/<network>`.
 */
export const routes = <E, R>(sandboxRoutes: Layer.Layer<never, E, R>) =>
  Layer.mergeAll(
  sandboxRoutes,
  Console.layer(),
  MediaFiles.layer,
  McpRoute.layer,
  PublicApi.layer(openapiPath),
  ErrorRendering.layer,
  TextRule.layer
).pipe(
  Layer.provide([
    AccountsHandlers.layer,
    InboxHandlers.layer,
    KeysHandlers.layer,
    NetworkWebhooks.layer,
    MediaHandlers.layer,
    MembersHandlers.layer,
    MembersHandlers.invitationsLayer,
    NetworksHandlers.layer,
    OAuthHandlers.layer,
    PostsHandlers.layer,
    ReviewsHandlers.layer,
    ReviewsHandlers.pagesLayer,
    SessionsHandlers.layer,
    SessionsHandlers.signInLayer,
    WebhooksHandlers.layer,
    WorkspaceHandlers.layer,
    SystemHandlers.layer
  ]),
  // Handlers of authenticated groups need the middleware too, so it is provided below them.
  Layer.provide(AuthorizationLive.layer)
)

/** The operator's routes, served only on the data folder's unix socket. */
export const adminRoutes = Layer.mergeAll(
  HttpApiBuilder.layer(AdminApi.AdminApi),
  ErrorRendering.layer,
  TextRule.layer
).pipe(
  Layer.provide(AdminHandlers.layer)
)

// JSON bodies are small; uploads stream with their own limit (their schema's maxBytes).
const maxJsonBody = ByteSize.bytes(1024 * 1024)

export const serve = <E, R>(routesLayer: Layer.Layer<never, E, R>) =>
  HttpRouter.serve(routesLayer, { disableListenLog: true, disableLogger: true }).pipe(
    Layer.provide(Layer.succeed(HttpIncomingMessage.MaxBodySize)(maxJsonBody))
  )
