import { type Role, roleName, roles } from "../settings/roles.ts"

// What an assistant allowed into a workspace will be able to do there, in words, by the role of the member
// it acts as. The API decides what each role may do; this only tells the person before they allow it.
const everything = (role: "owner" | "admin") => [
  `Everything you can do there as an ${role}`,
  "Read, create, change, schedule, publish and delete posts",
  "Approve or send back posts, and answer comments and messages"
]

const byRole: Record<Role, ReadonlyArray<string>> = {
  owner: everything("owner"),
  admin: everything("admin"),
  editor: [
    "Read the workspace's posts, calendar, queue, accounts and inbox",
    "Write posts as you: create, change and schedule them; they may need approval before they go out",
    "It cannot approve posts or change the workspace's settings"
  ],
  viewer: [
    "Read only: the workspace's posts, calendar, queue, accounts and inbox",
    "It cannot create, change or send anything"
  ]
}

const isRole = (role: string): role is Role => (roles as ReadonlyArray<string>).includes(role)

/** The lines for a role; a role this console does not know yet is described by the API's own name for it. */
export const abilities = (role: string): ReadonlyArray<string> =>
  isRole(role) ? byRole[role] : [`Whatever the ${roleName(role)} role may do in the workspace`]
