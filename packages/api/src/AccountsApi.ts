import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Account, Bounded } from "@herald/domain"
import { InvalidResponse, NotFoundResponse } from "./ApiError.ts"
import { Data } from "./Envelope.ts"

export class ConnectLink extends Schema.Class<ConnectLink>("ConnectLink")({
  /** The network's consent page; open it in a browser. It comes back to `/oauth/<platform>/callback`. */
  url: Schema.String,
  /** When the link stops working. */
  expiresAt: Schema.String
}) {}

export class Disconnected extends Schema.Class<Disconnected>("Disconnected")({
  id: Schema.String,
  disconnected: Schema.Literal(true)
}) {}

/**
 * What starting a connection takes: the fields of the network's connect method that a consent flow asks
 * first (see `GET /api/v1/networks`), and where to come back. The body of `POST
 * /api/v1/accounts/connect/:platform`, and the query of its older GET.
 */
export const startFields = {
  username: Schema.optionalKey(Bounded.string(100).annotate({
    description: "Sandbox only: the simulated account to log in as."
  })),
  returnTo: Schema.optionalKey(Bounded.Url.annotate({
    description: "A console path (under `/app/`, nothing else) to come back to: the callback then answers `303` to it " +
      "with `?connected=<accountId>` or `?error=<message>` instead of its page."
  })),
  server: Schema.optionalKey(Bounded.string(253).annotate({
    description: "The account's server, for a network of many servers (its `connect.fields` has `server`, e.g. an " +
      "instance of a federated network): Herald registers itself there on first use and reuses that app."
  }))
}

export const StartConnection = Schema.Struct(startFields)

/**
 * Signing in to a network whose connect method is `credentials` (see `GET /api/v1/networks`): its
 * `connect.fields`, by name. Secret ones are never echoed back or logged.
 */
export const SignIn = Schema.Struct({
  platform: Bounded.Word,
  fields: Bounded.record(Bounded.Word, Bounded.Url, Bounded.counts.entries)
})

export class AccountsApi extends HttpApiGroup.make("accounts").add(
  HttpApiEndpoint.get("list", "/accounts", {
    // Not paged: a workspace has a handful of accounts, so the body is exactly `{ "data": [...] }`.
    success: Data(Schema.Array(Account.Account))
  }).annotate(OpenApi.Summary, "List connected accounts with their ids"),
  // A change (a flow begun, perhaps Herald registered on a server the body names), so a POST: the console's
  // session passes the CSRF check there as every other change does (decision 0060).
  HttpApiEndpoint.post("startConnection", "/accounts/connect/:platform", {
    params: { platform: Bounded.Word },
    payload: StartConnection,
    success: Data(ConnectLink),
    error: [NotFoundResponse, InvalidResponse]
  }).annotate(OpenApi.Summary, "Start connecting an account: answers the network's consent URL"),
  HttpApiEndpoint.get("connect", "/accounts/connect/:platform", {
    params: { platform: Bounded.Word },
    query: startFields,
    success: Data(ConnectLink),
    error: [NotFoundResponse, InvalidResponse]
  }).annotate(OpenApi.Summary, "Start connecting an account (older form of the POST, for API keys)")
    .annotate(
      OpenApi.Description,
      "The older form of `POST /api/v1/accounts/connect/:platform`, its body as query parameters. API keys only: " +
        "a console session gets `403 forbidden` (a link on any site could make a browser send this GET with the cookie)."
    )
    .annotate(OpenApi.Deprecated, true),
  HttpApiEndpoint.post("signIn", "/accounts/connect", {
    payload: SignIn,
    success: Data(Account.Account).pipe(HttpApiSchema.status(201)),
    error: [NotFoundResponse, InvalidResponse]
  }).annotate(OpenApi.Summary, "Connect an account of a network that signs in with fields (a handle and an app password)"),
  HttpApiEndpoint.delete("disconnect", "/accounts/:id", {
    params: { id: Bounded.Id },
    success: Data(Disconnected),
    error: NotFoundResponse
  }).annotate(OpenApi.Summary, "Disconnect an account: its tokens are deleted")
).annotateMerge(OpenApi.annotations({
  title: "Accounts",
  description: "The network accounts the workspace posts as: list them, connect one (through the network's consent page, or with the fields its connect method asks), disconnect one."
})) {}

/** Where networks send the person back after consent (no key: the `state` identifies the flow). */
export class OAuthApi extends HttpApiGroup.make("oauth", { topLevel: true }).add(
  HttpApiEndpoint.get("callback", "/oauth/:platform/callback", {
    params: { platform: Bounded.Word },
    query: {
      code: Schema.optional(Bounded.Secret),
      state: Schema.optional(Bounded.Secret),
      error: Schema.optional(Bounded.Line),
      error_description: Schema.optional(Bounded.Note)
    },
    success: [
      Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/html" })),
      // When the flow was started with `returnTo`: back to that console page, saying how it went.
      HttpApiSchema.Empty(303)
    ],
    error: Schema.String.pipe(HttpApiSchema.asText({ contentType: "text/html" }), HttpApiSchema.status(400))
  }).annotate(OpenApi.Summary, "OAuth callback: finishes connecting an account")
    .annotate(
      OpenApi.Description,
      "Answers a page saying whether the account is connected; when the flow was started with `returnTo`, " +
        "a `303` to that console path with `?connected=<accountId>` or `?error=<message>` instead."
    )
).annotateMerge(OpenApi.annotations({
  title: "OAuth",
  description: "Where a network sends the person back after its consent page. No key: the `state` it carries identifies the flow."
})) {}
