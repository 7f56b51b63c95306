import { HttpApi, OpenApi } from "effect/http-api"
import { AccountsApi, OAuthApi } from "./AccountsApi.ts"
import { MediaApi } from "./MediaApi.ts"
import { InvitationsApi, MembersApi } from "./MembersApi.ts"
import { NetworksApi } from "./NetworksApi.ts"
import { PostsApi } from "./PostsApi.ts"
import { WebhooksApi } from "./WebhooksApi.ts"
import { WorkspaceApi } from "./WorkspaceApi.ts"
import { ReviewPagesApi, ReviewsApi } from "./ReviewsApi.ts"
import { InboxApi, NetworkWebhooksApi } from "./InboxApi.ts"
import { Authorization } from "./Authorization.ts"
import { SystemApi } from "./SystemApi.ts"

/** The public REST contract under `/api/v1`: shared by the server, the typed client and the OpenAPI document. */
export class V1 extends HttpApi.make("herald-v1")
  .add(AccountsApi)
  .add(NetworksApi)
  .add(PostsApi)
  .add(MediaApi)
  .add(WebhooksApi)
  .add(MembersApi)
  .add(WorkspaceApi)
  .add(ReviewsApi)
  .add(InboxApi)
  .middleware(Authorization)
  .prefix("/api/v1")
  // Unknown body fields are refused (so typos don't pass silently), and every problem is reported at once.
  .annotate(HttpApi.PayloadParseOptions, { onExcessProperty: "error", errors: "all" })
  .annotateMerge(OpenApi.annotations({
    title: "Herald API",
    version: "1",
    description: "Schedule and publish social posts to seven networks. Every route needs " +
      "`Authorization: Bearer <API_KEY>`; success bodies are `{ \"data\": ... }`, errors " +
      "`{ \"error\": { \"code\", \"message\" } }`."
  }))
{}

/** Everything the server answers through HttpApi: the v1 contract plus the unauthenticated system routes. */
export class HeraldApi extends HttpApi.make("herald")
  .addHttpApi(V1)
  .add(SystemApi)
  .add(OAuthApi)
  .add(InvitationsApi)
  .add(ReviewPagesApi)
  .add(NetworkWebhooksApi)
  .annotateMerge(OpenApi.annotations({ title: "Herald API", version: "1" }))
{}
