import { HttpApi, OpenApi } from "effect/http-api"
import { AccountsApi, OAuthApi } from "./AccountsApi.ts"
import { MediaApi } from "./MediaApi.ts"
import { InvitationsApi, MembersApi } from "./MembersApi.ts"
import { KeysApi } from "./KeysApi.ts"
import { McpOAuthApi } from "./McpOAuthApi.ts"
import { NetworksApi } from "./NetworksApi.ts"
import * as PostsApi from "./PostsApi.ts"
import * as QueueApi from "./QueueApi.ts"
import { WebhooksApi } from "./WebhooksApi.ts"
import { WorkspaceApi } from "./WorkspaceApi.ts"
import { ReviewPagesApi, ReviewsApi } from "./ReviewsApi.ts"
import { InboxApi, NetworkWebhooksApi } from "./InboxApi.ts"
import { Authorization } from "./Authorization.ts"
import { SystemApi } from "./SystemApi.ts"
import { SessionsApi, SignInApi } from "./SessionsApi.ts"
import * as SchemaNames from "./internal/schemaNames.ts"

/**
 * The public REST contract under `/api/v1`: shared by the server, the typed client and the OpenAPI document.
 * Made for the installed networks' post schemas (`PostsApi.schemas`), which carry each network's own post
 * options ([decision 0030](../../../docs/decisions/0030-options-owned-by-adapters.md)).
 */
export const makeV1 = (schemas: PostsApi.Schemas) => HttpApi.make("herald-v1")
  .add(AccountsApi)
  .add(NetworksApi)
  .add(PostsApi.make(schemas))
  .add(MediaApi)
  .add(WebhooksApi)
  .add(MembersApi)
  .add(KeysApi)
  .add(WorkspaceApi)
  .add(QueueApi.make(schemas))
  .add(ReviewsApi)
  .add(InboxApi)
  .add(SessionsApi)
  .add(McpOAuthApi)
  .middleware(Authorization)
  .prefix("/api/v1")
  // Unknown body fields are refused (so typos don't pass silently), and every problem is reported at once.
  .annotate(HttpApi.PayloadParseOptions, { onExcessProperty: "error", errors: "all" })

/** Everything the server answers through HttpApi: the v1 contract plus the unauthenticated system routes. */
export const make = (schemas: PostsApi.Schemas) => HttpApi.make("herald")
  .addHttpApi(makeV1(schemas))
  .add(SystemApi)
  .add(SignInApi)
  .add(OAuthApi)
  .add(InvitationsApi)
  .add(ReviewPagesApi)
  .add(NetworkWebhooksApi)
  .annotateMerge(OpenApi.annotations({
    title: "Herald API",
    version: "1",
    description: "Schedule and publish social posts to the networks GET /api/v1/networks lists. Every `/api/v1` route needs " +
      "`Authorization: Bearer <API_KEY>` (or the web console's session cookie, see Sessions); success bodies are `{ \"data\": ... }`, errors " +
      "`{ \"error\": { \"code\", \"message\" } }`.",
    license: { name: "MIT", identifier: "MIT" },
    // The server serving the document replaces this with its own public address (`BASE_URL`).
    servers: [{ url: "/", description: "The server serving this document" }],
    transform: SchemaNames.plain
  }))

/** The API as the server serves it; its handlers are built against it (`HttpApiBuilder.group(api, ...)`). */
export type HeraldApi = ReturnType<typeof make>
