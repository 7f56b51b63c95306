import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { Bounded, Ids, Permissions, Workspace } from "@herald/domain"
import { ForbiddenResponse, InvalidResponse, NotFoundResponse, RateLimitedResponse, UnauthorizedResponse } from "./ApiError.ts"
import { Data } from "./Envelope.ts"

// The web console's sign-in (decision 0021): a session cookie `herald_session` instead of a key. The sign-in
// group needs no key; the sessions group runs behind the same authorization as every `/api/v1` route.

const described = <S extends Schema.Top>(schema: S, description: string) => schema.annotate({ description }) as S

/**
 * What a member's role lets them do in a workspace, from the permission table (decisions 0079 and 0085): the
 * console shows what is open to the person from this rather than from its own idea of the roles.
 */
export const Allowed = described(
  Schema.Array(Schema.Literals(Permissions.actions)),
  "The actions the person's role may do there, from the permission table (decision 0085); the API still decides each request"
)

export class SessionPerson extends Schema.Class<SessionPerson>("SessionPerson")({
  id: described(Ids.PersonId, "The person's id (`per_…`)"),
  email: described(Schema.String, "The person's e-mail address, the same in every workspace"),
  name: described(Schema.NullOr(Schema.String), "The name the person gave, if any"),
  hasPassword: described(Schema.Boolean, "Whether the person has set a password")
}) {}

export class SessionWorkspace extends Schema.Class<SessionWorkspace>("SessionWorkspace")({
  id: described(Ids.WorkspaceId, "The workspace's id"),
  name: described(Schema.String, "The workspace's name"),
  role: described(Workspace.Role, "The person's role there"),
  memberId: described(Ids.MemberId, "The person's member id there"),
  permissions: Allowed
}) {}

export class Session extends Schema.Class<Session>("Session")({
  person: described(SessionPerson, "Who is signed in"),
  workspace: described(SessionWorkspace, "The workspace the session acts in now"),
  workspaces: described(Schema.Array(SessionWorkspace), "Every workspace the person is a member of"),
  csrfToken: described(Schema.String, "Send it as `X-CSRF-Token` with every request that changes something"),
  expiresAt: described(Schema.String, "When the session ends unless used (14 days after its last use, 60 at most)"),
  mustSetPassword: described(Schema.Boolean, "The person signed in by a link and should set a password now")
}) {}

export class SessionListed extends Schema.Class<SessionListed>("SessionListed")({
  id: described(Ids.SessionId, "The session's id (`ses_…`)"),
  createdAt: described(Schema.String, "When the person signed in"),
  lastUsedAt: described(Schema.String, "When the session was last used (to 5 minutes)"),
  expiresAt: described(Schema.String, "When it ends unless used"),
  userAgent: described(Schema.NullOr(Schema.String), "The browser it was started from"),
  address: described(Schema.NullOr(Schema.String), "The client address it was started from"),
  current: described(Schema.Boolean, "Whether this is the session making the request")
}) {}

export class ResetAnswer extends Schema.Class<ResetAnswer>("ResetAnswer")({
  email: described(
    Schema.Literals(["sent", "unavailable"]),
    "`sent` (whether or not the address is known), or `unavailable` when the server sends no e-mail"
  )
}) {}

export class InvitationWorkspace extends Schema.Class<InvitationWorkspace>("InvitationWorkspace")({
  id: described(Ids.WorkspaceId, "The workspace's id"),
  name: described(Schema.String, "The workspace's name")
}) {}

export class InvitationPreview extends Schema.Class<InvitationPreview>("InvitationPreview")({
  workspace: described(InvitationWorkspace, "The workspace the invitation is to"),
  email: described(Schema.String, "The invited address"),
  role: described(Workspace.Role, "The role the person will have"),
  personExists: described(
    Schema.Boolean,
    "Whether the address already has a sign-in: then accepting takes being that person (signed in, or its password)"
  ),
  passwordSet: described(
    Schema.Boolean,
    "Whether that sign-in has a password; without one the person signs in by their link (or a reset) first"
  ),
  expiresAt: described(Schema.String, "When the invitation stops working")
}) {}

const email = described(Bounded.Email, "The person's e-mail address")
const password = described(Bounded.Secret, "The password (10 to 200 characters, not the e-mail address)")
const token = described(Bounded.Secret, "The token from the link's fragment (after `#`)")

const signInErrors = [UnauthorizedResponse, RateLimitedResponse, ForbiddenResponse]

/** `/api/v1/auth/…` without a key: the sign-in itself. The Origin header must be the service's own. */
export class SignInApi extends HttpApiGroup.make("signIn").add(
  HttpApiEndpoint.post("signIn", "/auth/sign-in", {
    payload: Schema.Struct({ email, password: described(Bounded.Secret, "The person's password") }),
    success: Data(Session),
    error: signInErrors
  }).annotate(OpenApi.Summary, "Sign in with e-mail and password: sets the session cookie"),
  HttpApiEndpoint.post("link", "/auth/link", {
    payload: Schema.Struct({ token }),
    success: Data(Session),
    error: [InvalidResponse, ForbiddenResponse]
  }).annotate(OpenApi.Summary, "Sign in with a one-time link (single use): sets the session cookie"),
  HttpApiEndpoint.post("passwordReset", "/auth/password-reset", {
    payload: Schema.Struct({ email }),
    success: Data(ResetAnswer).pipe(HttpApiSchema.status(202)),
    error: [RateLimitedResponse, ForbiddenResponse]
  }).annotate(OpenApi.Summary, "E-mail a password reset link (valid 1 hour) to a known person"),
  HttpApiEndpoint.post("invitation", "/auth/invitation", {
    payload: Schema.Struct({ token }),
    success: Data(InvitationPreview),
    error: [InvalidResponse, ForbiddenResponse]
  }).annotate(OpenApi.Summary, "What an invitation is for, without accepting it"),
  HttpApiEndpoint.post("acceptInvitation", "/auth/invitation/accept", {
    payload: Schema.Struct({
      token,
      name: Schema.optionalKey(described(Bounded.Name, "A new person's name")),
      password: Schema.optionalKey(described(Bounded.Secret, "A new person's password, or an existing person's own"))
    }),
    success: Data(Session),
    error: [InvalidResponse, UnauthorizedResponse, ForbiddenResponse, RateLimitedResponse]
  }).annotate(OpenApi.Summary, "Accept an invitation (member.joined) and sign in in its workspace")
).prefix("/api/v1").annotateMerge(OpenApi.annotations({
  title: "Sign In",
  description: "The web console's sign-in. No key: these set the `herald_session` cookie (HttpOnly, SameSite=Lax). " +
    "The `Origin` header must be the service's own."
})) {}

/** `/api/v1/auth/…` of a signed-in person (the session cookie). */
export class SessionsApi extends HttpApiGroup.make("sessions").add(
  HttpApiEndpoint.get("session", "/auth/session", {
    success: Data(Session)
  }).annotate(OpenApi.Summary, "The current session, with its CSRF token"),
  HttpApiEndpoint.post("signOut", "/auth/sign-out", {
    success: HttpApiSchema.NoContent
  }).annotate(OpenApi.Summary, "Sign out: the session ends and its cookie is cleared"),
  HttpApiEndpoint.put("workspace", "/auth/workspace", {
    payload: Schema.Struct({ workspaceId: described(Bounded.Id, "A workspace the person is a member of") }),
    success: Data(Session),
    error: NotFoundResponse
  }).annotate(OpenApi.Summary, "Switch the session to another of the person's workspaces"),
  HttpApiEndpoint.put("password", "/auth/password", {
    payload: Schema.Struct({
      password,
      currentPassword: Schema.optionalKey(
        described(Bounded.Secret, "The current password; needed unless the person has none or signed in by a link in the last 30 minutes")
      )
    }),
    success: HttpApiSchema.NoContent,
    error: InvalidResponse
  }).annotate(OpenApi.Summary, "Set or change the password: the person's other sessions end"),
  HttpApiEndpoint.patch("profile", "/auth/profile", {
    payload: Schema.Struct({ name: described(Bounded.Name, "The person's name") }),
    success: Data(Session),
    error: InvalidResponse
  }).annotate(OpenApi.Summary, "Change the person's name"),
  HttpApiEndpoint.get("sessions", "/auth/sessions", {
    success: Data(Schema.Array(SessionListed))
  }).annotate(OpenApi.Summary, "The person's live sessions, newest first"),
  HttpApiEndpoint.delete("revoke", "/auth/sessions/:id", {
    params: { id: described(Bounded.Id, "The session's id") },
    success: HttpApiSchema.NoContent,
    error: NotFoundResponse
  }).annotate(OpenApi.Summary, "End one of the person's sessions")
).annotateMerge(OpenApi.annotations({
  title: "Sessions",
  description: "A signed-in person's session (the `herald_session` cookie). Requests that change something " +
    "send `Origin` and `X-CSRF-Token`. With an API key these answer 401: a key has no session."
})) {}
