// The four roles, as the API names them, and what each may do in a sentence for pickers. What a role may
// actually do is decided by the API; this only describes it.
export const roles = ["owner", "admin", "editor", "viewer"] as const
export type Role = typeof roles[number]

export const roleDescriptions: Record<Role, string> = {
  owner: "everything, including the team and keys",
  admin: "everything but owners' keys and roles",
  editor: "writes posts (approval may be required)",
  viewer: "reads only"
}

/** "Owner" from "owner". */
export const roleName = (role: string) => role.charAt(0).toUpperCase() + role.slice(1)

/** "an" before a vowel, as a sentence names a role: "an owner", "a viewer". */
export const article = (word: string) => (/^[aeiou]/i.test(word) ? "an" : "a")
