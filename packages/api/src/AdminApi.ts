import { Schema } from "effect"
import { HttpApi, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { Account, ApiKey, Workspace } from "@herald/domain"
import { ConflictResponse, InvalidResponse, NotFoundResponse, TooLargeResponse } from "./ApiError.ts"
import { Data } from "./Envelope.ts"
import { MediaObject } from "./MediaApi.ts"

// The operator's calls behind the `herald` command. A running server answers them on a unix socket in its
// data folder (owner-only), so the command works while the server holds the embedded database. They are
// not part of the public API and not in its OpenAPI document.

export const CreateWorkspace = Schema.Struct({
  name: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)),
  ownerEmail: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^[^\s@]+@[^\s@]+$/, {
    message: "Expected an e-mail address"
  })))
})

export const CreateKey = Schema.Struct({
  workspaceId: Schema.String,
  name: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200))),
  memberId: Schema.optionalKey(Schema.String)
})

export class AdminWorkspaces extends HttpApiGroup.make("workspaces").add(
  HttpApiEndpoint.post("create", "/workspaces", { payload: CreateWorkspace, success: Data(Workspace.Workspace) }),
  HttpApiEndpoint.get("list", "/workspaces", { success: Data(Schema.Array(Workspace.Workspace)) })
) {}

export class AdminKeys extends HttpApiGroup.make("keys").add(
  HttpApiEndpoint.post("create", "/keys", {
    payload: CreateKey,
    success: Data(ApiKey.CreatedApiKey),
    error: [NotFoundResponse, InvalidResponse]
  }),
  HttpApiEndpoint.get("list", "/workspaces/:workspaceId/keys", {
    params: { workspaceId: Schema.String },
    success: Data(Schema.Array(ApiKey.ApiKey)),
    error: NotFoundResponse
  }),
  HttpApiEndpoint.post("revoke", "/keys/:keyId/revoke", {
    params: { keyId: Schema.String },
    success: Data(ApiKey.ApiKey),
    error: NotFoundResponse
  })
) {}

export const ConnectSandbox = Schema.Struct({
  workspaceId: Schema.String,
  platform: Schema.String,
  username: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^[A-Za-z0-9_.]{1,30}$/, {
    message: "Expected a username of 1 to 30 letters, digits, _ or ."
  }))),
  /** The sandbox server to connect on, for a network of many servers (the simulator's own by default). */
  server: Schema.optionalKey(Schema.String)
})

/** Signing in to a `credentials` network with the fields its connect method asks (`herald account connect --field`). */
export const SignIn = Schema.Struct({
  workspaceId: Schema.String,
  platform: Schema.String,
  fields: Schema.Record(Schema.String, Schema.String)
})

export class AdminAccounts extends HttpApiGroup.make("accounts").add(
  HttpApiEndpoint.post("connectSandbox", "/accounts/sandbox", {
    payload: ConnectSandbox,
    success: Data(Account.Account),
    error: [NotFoundResponse, InvalidResponse]
  }),
  HttpApiEndpoint.post("signIn", "/accounts/sign-in", {
    payload: SignIn,
    success: Data(Account.Account),
    error: [NotFoundResponse, InvalidResponse]
  }),
  HttpApiEndpoint.get("list", "/workspaces/:workspaceId/accounts", {
    params: { workspaceId: Schema.String },
    success: Data(Schema.Array(Account.Account)),
    error: NotFoundResponse
  })
) {}

export const InviteMember = Schema.Struct({ workspaceId: Schema.String, email: Schema.String, role: Schema.String })

export const LoginLink = Schema.Struct({ workspaceId: Schema.String, email: Schema.String })
export class LoginLinkCreated extends Schema.Class<LoginLinkCreated>("LoginLinkCreated")({
  url: Schema.String,
  expiresAt: Schema.String
}) {}

export class AdminMembers extends HttpApiGroup.make("members").add(
  HttpApiEndpoint.get("list", "/workspaces/:workspaceId/members", {
    params: { workspaceId: Schema.String },
    success: Data(Schema.Array(Workspace.Member)),
    error: NotFoundResponse
  }),
  HttpApiEndpoint.post("invite", "/members/invitations", {
    payload: InviteMember,
    success: Data(Workspace.Invitation),
    error: [NotFoundResponse, InvalidResponse, ConflictResponse]
  }),
  HttpApiEndpoint.post("changeRole", "/members/:memberId/role", {
    params: { memberId: Schema.String },
    payload: Schema.Struct({ role: Schema.String }),
    success: Data(Workspace.Member),
    error: [NotFoundResponse, InvalidResponse, ConflictResponse]
  }),
  HttpApiEndpoint.post("remove", "/members/:memberId/remove", {
    params: { memberId: Schema.String },
    success: Data(Workspace.Member),
    error: [NotFoundResponse, ConflictResponse]
  }),
  HttpApiEndpoint.post("loginLink", "/members/login-link", {
    payload: LoginLink,
    success: Data(LoginLinkCreated),
    error: NotFoundResponse
  })
) {}

/** `herald media upload FILE`: a file on this machine (an absolute path), uploaded like `POST /api/v1/media`. */
export const UploadMedia = Schema.Struct({
  workspaceId: Schema.String,
  path: Schema.String,
  alt: Schema.optionalKey(Schema.String)
})

export class AdminMedia extends HttpApiGroup.make("media").add(
  HttpApiEndpoint.post("upload", "/media", {
    payload: UploadMedia,
    success: Data(MediaObject),
    error: [NotFoundResponse, InvalidResponse, TooLargeResponse]
  })
) {}

export class AdminApi extends HttpApi.make("herald-admin")
  .add(AdminWorkspaces)
  .add(AdminKeys)
  .add(AdminAccounts)
  .add(AdminMembers)
  .add(AdminMedia)
  .prefix("/admin")
{}
