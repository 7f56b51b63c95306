import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
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
  security: { bearer: HttpApiSecurity.bearer },
  // Invalid and Conflict come from the Idempotency-Key check that runs with it; Forbidden from a viewer's
  // key asking for a change.
  error: [UnauthorizedResponse, RateLimitedResponse, InvalidResponse, ConflictResponse, ForbiddenResponse]
}) {}
