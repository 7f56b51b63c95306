import * as Permissions from "@herald/domain/Permissions"

// The four roles, as the API names them, from the one that may do most, and what each may do in a few words
// for pickers: both from the domain's permission table, which decides what a role may do.
export const roles = Permissions.roles.toReversed()
export type Role = typeof roles[number]

export const roleDescriptions: Record<Role, string> = Object.fromEntries(
  roles.map((role) => [role, Permissions.summary(role)])
) as Record<Role, string>

/** "Owner" from "owner". */
export const roleName = (role: string) => role.charAt(0).toUpperCase() + role.slice(1)

/** "an" before a vowel, as a sentence names a role: "an owner", "a viewer". */
export const article = (word: string) => (/^[aeiou]/i.test(word) ? "an" : "a")
