import { may, type Permission } from "../../api/session.ts"
import { article } from "../settings/roles.ts"

// What an assistant allowed into a workspace will be able to do there, in words, from what the API says the
// member it acts as may do (`permissions`, the permission table's actions for their role). The words are the
// console's; which of them apply is the API's. The API still decides each request.
export const abilities = (role: string, permissions: ReadonlyArray<Permission>): ReadonlyArray<string> => {
  const open = { permissions }
  if (!may(open, "change")) {
    return [
      "Read only: the workspace's posts, calendar, queue, accounts and inbox",
      "It cannot create, change or send anything"
    ]
  }
  if (may(open, "approve")) {
    return [
      `Everything you can do there as ${article(role)} ${role}`,
      "Read, create, change, schedule, publish and delete posts",
      "Approve or send back posts, and answer comments and messages"
    ]
  }
  return [
    "Read the workspace's posts, calendar, queue, accounts and inbox",
    may(open, "publishWithoutApproval")
      ? "Write posts as you: create, change, schedule and publish them"
      : "Write posts as you: create, change and schedule them; they may need approval before they go out",
    may(open, "manageSettings") ? "It cannot approve posts" : "It cannot approve posts or change the workspace's settings"
  ]
}
