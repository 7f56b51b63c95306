import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Bounded, Ids, Workspace } from "@herald/domain"
import { InvalidResponse, NotFoundResponse } from "./ApiError.ts"
import { Allowed } from "./SessionsApi.ts"
import { Data } from "./Envelope.ts"

// The console's side of Herald's OAuth server for `/api/mcp` (decision 0045): the consent page reads a
// pending authorization request and answers it; Settings lists the assistants connected and disconnects
// them. A signed-in person only: an API key has no person to consent.

const described = <S extends Schema.Top>(schema: S, description: string) => schema.annotate({ description }) as S

export class McpOAuthClient extends Schema.Class<McpOAuthClient>("McpOAuthClient")({
  id: described(Schema.String, "The client's id (`mcl_…`), given at its registration"),
  name: described(Schema.String, "The name the assistant registered with (its own words: show it as such)")
}) {}

export class McpOAuthWorkspace extends Schema.Class<McpOAuthWorkspace>("McpOAuthWorkspace")({
  id: described(Ids.WorkspaceId, "The workspace's id"),
  name: described(Schema.String, "The workspace's name"),
  role: described(Workspace.Role, "The person's role there: what the assistant may do there"),
  permissions: Allowed,
  mayPublishDirectly: described(
    Schema.Boolean,
    "Whether the person's role there publishes without approval, so that they may let the assistant do so too"
  )
}) {}

export class McpOAuthRequest extends Schema.Class<McpOAuthRequest>("McpOAuthRequest")({
  id: described(Schema.String, "The request's id (`oar_…`)"),
  client: described(McpOAuthClient, "The assistant asking"),
  redirectUri: described(Schema.String, "Where the browser goes back to once answered"),
  resource: described(Schema.String, "What the assistant will reach: this Herald's MCP endpoint"),
  scopes: described(Schema.Array(Schema.String), "The scopes asked for"),
  expiresAt: described(Schema.String, "When the request lapses unanswered (10 minutes after it was made)"),
  workspaces: described(Schema.Array(McpOAuthWorkspace), "The signed-in person's workspaces, one of which to pick")
}) {}

export class McpOAuthRedirect extends Schema.Class<McpOAuthRedirect>("McpOAuthRedirect")({
  redirectTo: described(Schema.String, "Where to send the browser: the assistant's redirect URI with the code, or the refusal")
}) {}

export class McpOAuthGrant extends Schema.Class<McpOAuthGrant>("McpOAuthGrant")({
  id: described(Schema.String, "The connection's id (`grt_…`)"),
  client: described(McpOAuthClient, "The assistant"),
  memberId: described(Ids.MemberId, "The member it acts as"),
  email: described(Schema.String, "That member's e-mail address"),
  role: described(Workspace.Role, "That member's role, which bounds what the assistant may do"),
  publishesDirectly: described(
    Schema.Boolean,
    "Whether its member let it publish without approval; when false its posts wait for approval while the workspace's " +
      "`assistantApproval` is on"
  ),
  createdAt: described(Schema.String, "When it was connected"),
  lastUsedAt: described(Schema.NullOr(Schema.String), "When it last called Herald (to the minute), or null")
}) {}

export class McpOAuthGrantRevoked extends Schema.Class<McpOAuthGrantRevoked>("McpOAuthGrantRevoked")({
  id: Schema.String,
  revoked: Schema.Literal(true)
}) {}

const requestId = { id: described(Bounded.Id, "The request's id, from the consent page's `request` parameter") }

export class McpOAuthApi extends HttpApiGroup.make("mcpOAuth").add(
  HttpApiEndpoint.get("request", "/oauth/requests/:id", {
    params: requestId,
    success: Data(McpOAuthRequest),
    error: NotFoundResponse
  }).annotate(OpenApi.Summary, "A pending authorization request, for the consent page"),
  HttpApiEndpoint.post("approve", "/oauth/requests/:id/approve", {
    params: requestId,
    payload: Schema.Struct({
      workspaceId: described(Bounded.Id, "The workspace the assistant will act in, as the person's member there"),
      publishesDirectly: Schema.optionalKey(described(
        Schema.Boolean,
        "Let the assistant publish without approval (false by default: its posts wait for an owner's or admin's approval " +
          "while the workspace's `assistantApproval` is on); only where the workspace's `mayPublishDirectly` is true"
      ))
    }),
    success: Data(McpOAuthRedirect),
    error: [NotFoundResponse, InvalidResponse]
  }).annotate(OpenApi.Summary, "Allow the assistant: answers where to send the browser, with the one-time code"),
  HttpApiEndpoint.post("deny", "/oauth/requests/:id/deny", {
    params: requestId,
    success: Data(McpOAuthRedirect),
    error: NotFoundResponse
  }).annotate(OpenApi.Summary, "Refuse the assistant: answers where to send the browser, with error=access_denied"),
  HttpApiEndpoint.get("grants", "/oauth/grants", {
    success: Data(Schema.Array(McpOAuthGrant))
  }).annotate(OpenApi.Summary, "The workspace's connected assistants (owners and admins see all; others their own)"),
  HttpApiEndpoint.delete("revokeGrant", "/oauth/grants/:id", {
    params: { id: described(Bounded.Id, "The connection's id") },
    success: Data(McpOAuthGrantRevoked),
    error: NotFoundResponse
  }).annotate(OpenApi.Summary, "Disconnect an assistant: its tokens stop working at once")
).annotateMerge(OpenApi.annotations({
  title: "Connected Assistants",
  description: "Consent to, and manage, AI assistants connected to `/api/mcp` by OAuth. The console's session only: " +
    "with an API key these answer 401."
})) {}
