import { Effect } from "effect"
import { ApiError, Authorization } from "@herald/api"
import { Workspace } from "@herald/domain"

// Who may manage keys and the team (docs/decisions/0024-api-keys-over-rest.md): owners, admins and
// workspace keys; nobody hands out, or takes away, more power than their own.

const article = (role: string) => (role === "owner" || role === "admin" ? "an" : "a")

/** The principal, when it manages `what` (owners, admins and workspace keys); else `403 forbidden`. */
export const manager = (what: string) =>
  Effect.flatMap(Effect.service(Authorization.CurrentPrincipal), (principal) =>
    principal.role === "editor" || principal.role === "viewer"
      ? Effect.fail(new ApiError.Forbidden({
        message: `${what} ${what.endsWith("s") ? "are" : "is"} managed by owners and admins; you act as ${article(principal.role)} ${principal.role}`
      }))
      : Effect.succeed(principal))

/**
 * `403 forbidden` when `target` (a role, or null for a workspace key) ranks above `own`: `action` says what
 * was refused, as in "create a key acting for an owner".
 */
export const notAbove = (own: Workspace.Role | null, target: Workspace.Role | null, action: string) =>
  Workspace.rank(target) > Workspace.rank(own)
    ? Effect.fail(new ApiError.Forbidden({
      message: `You act as ${own === null ? "a workspace key" : `${article(own)} ${own}`} and cannot ${action}; ask an owner`
    }))
    : Effect.void

/** How a key's power reads in a refusal. */
export const keyActingFor = (role: Workspace.Role | null) =>
  role === null ? "a workspace key, which may do anything" : `a key acting for ${article(role)} ${role}`
