import { Effect } from "effect"
import { ApiError, Authorization } from "@herald/api"
import { Permissions, type Workspace } from "@herald/domain"

// Who may manage keys, the team, the queue and the settings is the permission table's (Permissions,
// docs/decisions/0024-api-keys-over-rest.md); nobody hands out, or takes away, more power than their own.

/** "an" before owner and admin, "a" before the others, as a refusal names a role. */
export const article = (role: string) => (role === "owner" || role === "admin" ? "an" : "a")

/** The roles that may do `action`, most powerful first, as a refusal names them: "owners and admins". */
export const whoMay = (action: Permissions.Action) =>
  Permissions.table[action].toReversed().map((role) => `${role}s`).join(" and ")

/** The principal, when it may do `action` (managing `what`); else `403 forbidden`. */
export const manager = (action: Permissions.Action, what: string) =>
  Effect.flatMap(Effect.service(Authorization.CurrentPrincipal), (principal) =>
    principal.role !== null && !Permissions.can(principal.role, action)
      ? Effect.fail(new ApiError.Forbidden({
        message: `${what} ${what.endsWith("s") ? "are" : "is"} managed by ${whoMay(action)}; you act as ${article(principal.role)} ${principal.role}`
      }))
      : Effect.succeed(principal))

/**
 * `403 forbidden` when `target` (a role, or null for a workspace key) ranks above `own`: `action` says what
 * was refused, as in "create a key acting for an owner".
 */
export const notAbove = (own: Workspace.Role | null, target: Workspace.Role | null, action: string) =>
  !Permissions.mayGrant(own, target)
    ? Effect.fail(new ApiError.Forbidden({
      message: `You act as ${own === null ? "a workspace key" : `${article(own)} ${own}`} and cannot ${action}; ask an owner`
    }))
    : Effect.void

/** How a key's power reads in a refusal. */
export const keyActingFor = (role: Workspace.Role | null) =>
  role === null ? "a workspace key, which may do anything" : `a key acting for ${article(role)} ${role}`
