import { Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { Permissions } from "@herald/domain"
import * as Output from "../Output.ts"
import { json, withAdmin, workspaceFlag } from "./commandRun.ts"

// `herald workspace`, `herald key` and `herald member`: a workspace, its API keys and its members, each
// through the admin service. Apart from `Commands.ts`, which puts the command tree together.

export const workspaceCreate = Command.make("create", {
  name: Flag.String("name").pipe(Flag.withDescription("The workspace's name")),
  ownerEmail: Flag.String("owner-email").pipe(Flag.withDescription("E-mail of its owner"), Flag.optional),
  json
}, ({ json, name, ownerEmail }) =>
  withAdmin(json, (admin) =>
    admin.createWorkspace(
      Option.isSome(ownerEmail) ? { name, ownerEmail: ownerEmail.value } : { name }
    ).pipe(
      Effect.flatMap((workspace) =>
        Output.result(json, workspace, () => [`Created workspace "${workspace.name}": ${workspace.id}`])
      )
    ))).pipe(Command.withDescription("Create a workspace"))

export const workspaceList = Command.make("list", { json }, ({ json }) =>
  withAdmin(json, (admin) =>
    admin.listWorkspaces.pipe(
      Effect.flatMap((workspaces) =>
        Output.result(json, workspaces, () =>
          workspaces.length === 0
            ? ["No workspaces."]
            : workspaces.map((workspace) => `${workspace.id}  ${workspace.name}  (created ${workspace.createdAt})`))
      )
    ))).pipe(Command.withDescription("List workspaces"))

export const keyCreate = Command.make("create", {
  workspace: workspaceFlag,
  name: Flag.String("name").pipe(Flag.withDescription("A name to tell the key by"), Flag.optional),
  member: Flag.String("member").pipe(
    Flag.withDescription("A member (mem_...) the key acts for, with the member's role; a workspace key otherwise"),
    Flag.optional
  ),
  json
}, ({ json, member, name, workspace }) =>
  withAdmin(json, (admin) =>
    admin.createKey({
      workspaceId: workspace,
      ...(Option.isSome(name) ? { name: name.value } : {}),
      ...(Option.isSome(member) ? { memberId: member.value } : {})
    })
      .pipe(
        Effect.flatMap((created) =>
          Output.result(json, created, () => [
            `Created API key "${created.name}" (${created.id}) for ${created.workspaceId}.`,
            `The key, shown only this once:`,
            ``,
            `  ${created.key}`
          ])
        )
      ))).pipe(Command.withDescription("Create an API key; the key is shown once"))

export const keyList = Command.make("list", { workspace: workspaceFlag, json }, ({ json, workspace }) =>
  withAdmin(json, (admin) =>
    admin.listKeys(workspace).pipe(
      Effect.flatMap((keys) =>
        Output.result(json, keys, () =>
          keys.length === 0
            ? ["No API keys."]
            : keys.map((key) =>
              `${key.id}  ${key.prefix}…${key.lastFour}  ${key.name}  created ${key.createdAt}  ` +
              `last used ${key.lastUsedAt ?? "never"}${key.revokedAt === null ? "" : `  REVOKED ${key.revokedAt}`}`
            ))
      )
    ))).pipe(Command.withDescription("List a workspace's API keys (never the keys themselves)"))

export const keyRevoke = Command.make("revoke", {
  keyId: Argument.String("KEY_ID").pipe(Argument.withDescription("The key's id (key_...)")),
  json
}, ({ json, keyId }) =>
  withAdmin(json, (admin) =>
    admin.revokeKey(keyId).pipe(
      Effect.flatMap((key) => Output.result(json, key, () => [`Revoked ${key.id} (${key.name}).`]))
    ))).pipe(Command.withDescription("Revoke an API key; the next request with it is refused"))

// Each role with what it may do, from the permission table the API and the console read.
const roleFlag = Flag.String("role").pipe(Flag.withDescription(
  `The role. ${Permissions.roles.toReversed().map((role) => `${role}: ${Permissions.summary(role)}`).join("; ")}`
))
const memberArgument = Argument.String("MEMBER_ID").pipe(Argument.withDescription("The member's id (mem_...)"))

export const memberList = Command.make("list", { workspace: workspaceFlag, json }, ({ json, workspace }) =>
  withAdmin(json, (admin) =>
    admin.listMembers(workspace).pipe(
      Effect.flatMap((members) =>
        Output.result(json, members, () =>
          members.length === 0
            ? ["No members."]
            : members.map((member) => `${member.id}  ${member.email}  ${member.role}  since ${member.createdAt}`))
      )
    ))).pipe(Command.withDescription("List a workspace's members and their roles"))

export const memberInvite = Command.make("invite", {
  workspace: workspaceFlag,
  email: Flag.String("email").pipe(Flag.withDescription("The address to invite")),
  role: roleFlag,
  json
}, ({ email, json, role, workspace }) =>
  withAdmin(json, (admin) =>
    admin.inviteMember({ workspaceId: workspace, email, role }).pipe(
      Effect.flatMap((invitation) =>
        Output.result(json, invitation, () => [
          `Invited ${invitation.email} as ${invitation.role} (${invitation.id}); the link, also e-mailed, works until ` +
          `${invitation.expiresAt}:`,
          ``,
          `  ${invitation.url}`
        ])
      )
    ))).pipe(Command.withDescription("Invite an address to a workspace with a role; prints the signed link"))

export const memberLoginLink = Command.make("login-link", {
  workspace: workspaceFlag,
  email: Flag.String("email").pipe(Flag.withDescription("The member's e-mail address")),
  json
}, ({ email, json, workspace }) =>
  withAdmin(json, (admin) =>
    admin.loginLink({ workspaceId: workspace, email }).pipe(
      Effect.flatMap((link) =>
        Output.result(json, { url: link.url, expiresAt: link.expiresAt }, () => [
          `A sign-in link for ${email} to the console; it works once, until ${link.expiresAt}:`,
          ``,
          `  ${link.url}`
        ])
      )
    ))).pipe(Command.withDescription("Print a one-time sign-in link (24 h) to the web console for a member"))

export const memberRole = Command.make("role", { memberId: memberArgument, role: roleFlag, json }, ({ json, memberId, role }) =>
  withAdmin(json, (admin) =>
    admin.changeRole(memberId, role).pipe(
      Effect.flatMap((member) => Output.result(json, member, () => [`${member.email} (${member.id}) is now ${member.role}.`]))
    ))).pipe(Command.withDescription("Change a member's role (a workspace keeps at least one owner)"))

export const memberRemove = Command.make("remove", { memberId: memberArgument, json }, ({ json, memberId }) =>
  withAdmin(json, (admin) =>
    admin.removeMember(memberId).pipe(
      Effect.flatMap((member) => Output.result(json, member, () => [`Removed ${member.email} (${member.id}).`]))
    ))).pipe(Command.withDescription("Remove a member from its workspace (not its only owner)"))
