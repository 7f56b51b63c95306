import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import type { Ids, Workspace } from "@herald/domain"
import { ConflictResponse, ForbiddenResponse, InvalidResponse, RateLimitedResponse, UnauthorizedResponse } from "./ApiError.ts"

/**
 * The workspace a request acts in and how it authenticated: a key (`keyId`, and the member with role the key
 * acts for, if any) or a console session (`sessionId`, `personId`, and the person's member there).
 */
export class CurrentPrincipal extends Context.Service<CurrentPrincipal, {
  readonly workspaceId: Ids.WorkspaceId
  readonly keyId: Ids.ApiKeyId | null
  readonly sessionId: Ids.SessionId | null
  readonly personId: Ids.PersonId | null
  readonly memberId: Ids.MemberId | null
  readonly role: Workspace.Role | null
}>()("@herald/api/CurrentPrincipal") {}

/** The console's session cookie (decision 0021). */
export const sessionCookie = "herald_session"

/**
 * Bearer API key on every `/api/v1` route, or else the console's session cookie (with the CSRF rule for
 * changes), then the per-key or per-person rate limit.
 */
export class Authorization extends HttpApiMiddleware.Service<Authorization, {
  provides: CurrentPrincipal
}>()("@herald/api/Authorization", {
  requiredForClient: true,
  // Lowercase as OpenAPI writes HTTP schemes: the docs page knows `bearer` (and sends `Authorization: Bearer`),
  // not `Bearer`. The server reads the scheme in any case (RFC 9110). The bearer key comes first: the docs
  // page's samples use the first scheme.
  security: {
    bearer: HttpApiSecurity.http({ scheme: "bearer" }).pipe(HttpApiSecurity.annotate(
      OpenApi.Description,
      "A workspace's API key (`hrld_…`), sent as `Authorization: Bearer <key>`; `herald key create` makes one"
    )),
    session: HttpApiSecurity.apiKey({ in: "cookie", key: sessionCookie }).pipe(HttpApiSecurity.annotate(
      OpenApi.Description,
      "The web console's session cookie, set by `POST /api/v1/auth/sign-in`; used only when no `Authorization` " +
        "header is sent. Requests that change something must send `Origin` (the service's own) and " +
        "`X-CSRF-Token` (from `GET /api/v1/auth/session`)"
    ))
  },
  // Invalid and Conflict come from the Idempotency-Key check that runs with it; Forbidden from a viewer's
  // key asking for a change.
  error: [UnauthorizedResponse, RateLimitedResponse, InvalidResponse, ConflictResponse, ForbiddenResponse]
}) {}
