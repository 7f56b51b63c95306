import type { Role } from "./Workspace.ts"

// Who may do what in a workspace, as data (product.md, "The app"; decisions 0024 and 0060): one table of the
// roles each action is open to, and pure functions the surfaces ask instead of naming roles. REST, MCP and
// core read it, so a surface cannot let a role do more than another surface does. It imports no value, so the
// console reads it too (`@herald/domain/Permissions`), for the words it shows beside a role.

/** Every role, from the one that may do least to the one that may do most (`Workspace.rank`). */
export const roles: ReadonlyArray<Role> = ["viewer", "editor", "admin", "owner"]

/**
 * How much a role may do, for "nobody grants more than they have" (docs/decisions/0024): `null` is a
 * workspace key, which may do anything, so it ranks with an owner.
 */
export const rank = (role: Role | null): number => role === null ? roles.length - 1 : roles.indexOf(role)

/** What a member, or a key acting for one, asks to do. */
export type Action =
  | "read" // posts, calendar, queue, accounts, inbox, members: every GET
  | "manageOwnSignIn" // a person's own sign-in: password, name, sessions, workspace switch, their own assistant's consent
  | "change" // anything else that is not read: posts, media, accounts, webhooks, inbox answers
  | "publishWithoutApproval" // a post goes on the schedule without waiting when the workspace requires approval
  | "approve" // approve a post awaiting approval, or send it back
  | "manageSettings" // the workspace's settings
  | "manageKeys" // API keys
  | "manageTeam" // members and invitations
  | "manageQueue" // the queue's schedule, and moving posts in it
  | "manageAllAssistants" // every member's connected assistants, not only one's own

const everyone: ReadonlyArray<Role> = roles
const writers: ReadonlyArray<Role> = ["editor", "admin", "owner"]
const managers: ReadonlyArray<Role> = ["admin", "owner"]

/** The roles each action is open to. A workspace key (no role) may do anything. */
export const table: { readonly [action in Action]: ReadonlyArray<Role> } = {
  read: everyone,
  manageOwnSignIn: everyone,
  change: writers,
  publishWithoutApproval: managers,
  approve: managers,
  manageSettings: managers,
  manageKeys: managers,
  manageTeam: managers,
  manageQueue: managers,
  manageAllAssistants: managers
}

export const actions = Object.keys(table) as ReadonlyArray<Action>

/** Whether `role` may do `action`; `null` is a workspace key, which may do anything. */
export const can = (role: Role | null, action: Action): boolean => role === null || table[action].includes(role)

/** Every action `role` may do, in the table's order: what the API tells a member (and the console shows). */
export const allowed = (role: Role | null): ReadonlyArray<Action> => actions.filter((action) => can(role, action))

/** The least role that may do `action`, for a refusal that says who may. */
export const leastRole = (action: Action): Role => roles.find((role) => table[action].includes(role))!

/** Whether `own` may hand out or touch `target` (a role, or null for a workspace key): never more than one's own. */
export const mayGrant = (own: Role | null, target: Role | null): boolean => rank(target) <= rank(own)

/** What a role's actions beyond reading come to, in words: read by `summary`. */
const doing: { readonly [action in Action]?: string } = {
  change: "writes posts, media, accounts and webhooks",
  approve: "approves posts",
  manageSettings: "settings",
  manageKeys: "keys",
  manageTeam: "the team",
  manageQueue: "the queue"
}

/**
 * What `role` may do, in a few words for a role picker or a flag's help, made from the table: "reads only",
 * what it writes and whether its posts may wait for approval, or everything, and for a role below the top
 * what the roles above keep to themselves (a role never touches a higher one's keys or role, `mayGrant`).
 */
export const summary = (role: Role): string => {
  const missing = actions.filter((action) => !can(role, action))
  if (missing.length === 0) {
    const above = roles.filter((other) => rank(other) > rank(role))
    return above.length === 0
      ? `everything, including ${[doing.manageTeam, doing.manageKeys].join(" and ")}`
      : `everything but ${above.map((other) => `${other}s'`).join(" and ")} keys and roles`
  }
  const beyondReading = allowed(role).flatMap((action) => table[action] === everyone ? [] : [doing[action] ?? action])
  if (beyondReading.length === 0) return "reads only"
  const waits = can(role, "change") && !can(role, "publishWithoutApproval") ? " (approval may be required)" : ""
  return `${beyondReading.join(", ")}${waits}`
}

/** Who may do `action`, in words from the table, the highest role first: "an owner or admin". */
export const whoMay = (action: Action): string => {
  const names = table[action].toReversed()
  const listed = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(", ")} or ${names.at(-1)!}`
  return `${/^[aeiou]/.test(listed) ? "an" : "a"} ${listed}`
}
