import { ByteSize, Effect, Layer } from "effect"
import { HttpIncomingMessage, HttpRouter } from "effect/http"
import { HttpApiBuilder } from "effect/http-api"
import { AdminApi, HeraldApi, PostsApi } from "@herald/api"
import { Networks, PostShape } from "@herald/core"
import * as AccountsHandlers from "./http/AccountsHandlers.ts"
import * as AdminHandlers from "./http/AdminHandlers.ts"
import * as AuthorizationLive from "./http/AuthorizationLive.ts"
import * as Console from "./http/Console.ts"
import * as ErrorRendering from "./http/ErrorRendering.ts"
import * as HandlerGroup from "./http/HandlerGroup.ts"
import * as MediaFiles from "./http/MediaFiles.ts"
import * as InboxHandlers from "./http/InboxHandlers.ts"
import * as KeysHandlers from "./http/KeysHandlers.ts"
import * as McpOAuthHandlers from "./http/McpOAuthHandlers.ts"
import * as McpRoute from "./http/McpRoute.ts"
import * as Metrics from "./http/Metrics.ts"
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
import * as QueueHandlers from "./http/QueueHandlers.ts"
import * as SystemHandlers from "./http/SystemHandlers.ts"
import * as TextRule from "./http/TextRule.ts"

/** Where the OpenAPI 3.1 document of the public API is served. */
export const openapiPath = "/api/v1/openapi.json"

/**
 * Every public route: the REST API, its OpenAPI document, the offline docs page, the MCP server, error
 * rendering, the text rule, and in the sandbox the network simulators under `/sandbox/<network>`.
 */
export const routes = <E, R>(sandboxRoutes: Layer.Layer<never, E, R>) =>
  Layer.unwrap(Effect.gen(function*() {
    const networks = yield* Networks.Networks
    // The server's requests run in this context; each handler group keeps only what it adds to it.
    const requestBase = yield* Effect.context<never>()
    // The contract for the installed networks: their post options in the schemas, the document and the tools.
    const api = HeraldApi.make(PostsApi.schemas(PostShape.make(networks.all)))
    return Layer.mergeAll(
      sandboxRoutes,
      Console.layer(),
      MediaFiles.layer,
      McpRoute.layer,
      Metrics.layer,
      PublicApi.layer(api, openapiPath),
      ErrorRendering.layer,
      TextRule.layer
    ).pipe(
      Layer.provide([
        AccountsHandlers.layer(api),
        InboxHandlers.layer(api),
        KeysHandlers.layer(api),
        McpOAuthHandlers.layer(api),
        NetworkWebhooks.layer(api),
        MediaHandlers.layer(api),
        MembersHandlers.layer(api),
        MembersHandlers.invitationsLayer(api),
        NetworksHandlers.layer(api),
        OAuthHandlers.layer(api),
        PostsHandlers.layer(api),
        ReviewsHandlers.layer(api),
        ReviewsHandlers.pagesLayer(api),
        SessionsHandlers.layer(api),
        SessionsHandlers.signInLayer(api),
        WebhooksHandlers.layer(api),
        WorkspaceHandlers.layer(api),
        QueueHandlers.layer(api),
        SystemHandlers.layer(api)
      ]),
      // Handlers of authenticated groups need the middleware too, so it is provided below them.
      Layer.provide(AuthorizationLive.layer),
      Layer.provide(Layer.succeed(HandlerGroup.RequestBase)(requestBase))
    )
  }))

/** The operator's routes, served only on the data folder's unix socket. */
export const adminRoutes = Layer.mergeAll(
  HttpApiBuilder.layer(AdminApi.AdminApi),
  ErrorRendering.layer,
  TextRule.layer
).pipe(
  Layer.provide(AdminHandlers.layer)
)

/**
 * JSON bodies are small; uploads stream with their own limit (their schema's maxBytes), and the sandbox's
 * simulators read up to their network's (SandboxBodies).
 */
export const maxJsonBodyBytes = 1024 * 1024
const maxJsonBody = ByteSize.bytes(maxJsonBodyBytes)

export const serve = <E, R>(routesLayer: Layer.Layer<never, E, R>) =>
  HttpRouter.serve(routesLayer, { disableListenLog: true, disableLogger: true }).pipe(
    Layer.provide(Layer.succeed(HttpIncomingMessage.MaxBodySize)(maxJsonBody))
  )
