import { Context } from "effect"
import { HttpApiMiddleware, HttpApiSecurity } from "effect/http-api"
import type { Ids } from "@herald/domain"
import { ConflictResponse, InvalidResponse, RateLimitedResponse, UnauthorizedResponse } from "./ApiError.ts"

/** The workspace and key a request authenticated as. */
export class CurrentPrincipal extends Context.Service<CurrentPrincipal, {
  readonly workspaceId: Ids.WorkspaceId
  readonly keyId: Ids.ApiKeyId
}>()("@herald/api/CurrentPrincipal") {}

/** Bearer API key on every `/api/v1` route, then the per-key rate limit. */
export class Authorization extends HttpApiMiddleware.Service<Authorization, {
  provides: CurrentPrincipal
}>()("@herald/api/Authorization", {
  requiredForClient: true,
  security: { bearer: HttpApiSecurity.bearer },
  // Invalid and Conflict come from the Idempotency-Key check that runs with it.
  error: [UnauthorizedResponse, RateLimitedResponse, InvalidResponse, ConflictResponse]
}) {}
