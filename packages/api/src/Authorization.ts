import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity, OpenApi } from "effect/http-api"
import type { Ids, Workspace } from "@herald/domain"
import { ConflictResponse, ForbiddenResponse, InvalidResponse, RateLimitedResponse, UnauthorizedResponse } from "./ApiError.ts"

/** The workspace and key a request authenticated as, and the member (with role) the key acts for, if any. */
export class CurrentPrincipal extends Context.Service<CurrentPrincipal, {
  readonly workspaceId: Ids.WorkspaceId
  readonly keyId: Ids.ApiKeyId
  readonly memberId: Ids.MemberId | null
  readonly role: Workspace.Role | null
}>()("@herald/api/CurrentPrincipal") {}

/** Bearer API key on every `/api/v1` route, then the per-key rate limit. */
export class Authorization extends HttpApiMiddleware.Service<Authorization, {
  provides: CurrentPrincipal
}>()("@herald/api/Authorization", {
  requiredForClient: true,
  // Lowercase as OpenAPI writes HTTP schemes: the docs page knows `bearer` (and sends `Authorization: Bearer`),
  // not `Bearer`. The server reads the scheme in any case (RFC 9110).
  security: {
    bearer: HttpApiSecurity.http({ scheme: "bearer" }).pipe(HttpApiSecurity.annotate(
      OpenApi.Description,
      "A workspace's API key (`hrld_…`), sent as `Authorization: Bearer <key>`; `herald key create` makes one"
    ))
  },
  // Invalid and Conflict come from the Idempotency-Key check that runs with it; Forbidden from a viewer's
  // key asking for a change.
  error: [UnauthorizedResponse, RateLimitedResponse, InvalidResponse, ConflictResponse, ForbiddenResponse]
}) {}
