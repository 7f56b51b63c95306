import { Config, Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import { Main, Packages } from "@herald/server"
import { Database, DatabaseInfo } from "@herald/db"
import { SecretKey, Settings } from "@herald/core"
import type { Account } from "@herald/domain"
import { Admin } from "./Admin.ts"
import * as Backend from "./Backend.ts"
import * as Failures from "./Failures.ts"
import * as Output from "./Output.ts"
import * as Start from "./Start.ts"
import { DataDirLock } from "@herald/db"
import { resolve } from "node:path"

const json = Flag.Boolean("json").pipe(
  Flag.withDescription("Print exactly one JSON document on stdout"),
  Flag.withDefault(false)
)

/** Runs a command's work and reports any failure in the requested form, with exit code 1. */
const guarded = <A, E extends { readonly message: string }, R>(
  asJson: boolean,
  effect: Effect.Effect<A, E, R>
) =>
  effect.pipe(
    Effect.catch((error) => {
      const { code, message } = Failures.describe(error)
      return Output.failure(asJson, code, message).pipe(
        Effect.andThen(Effect.sync(() => {
          process.exitCode = 1
        }))
      )
    })
  )

const withAdmin = <A, E extends { readonly message: string }>(
  asJson: boolean,
  use: (admin: Admin["Service"]) => Effect.Effect<A, E>
) => guarded(asJson, Effect.flatMap(Admin, use).pipe(Effect.provide(Backend.adminLayer), Effect.scoped))

const start = Command.make("start", { json }, ({ json }) =>
  guarded(
    json,
    Main.run(Packages.all, (started) =>
      Output.result(json, {
        api: started.api,
        docs: started.docs,
        openapi: started.openapi,
        mcp: started.mcp,
        health: started.health,
        listening: started.listening,
        database: started.database,
        sandbox: started.sandbox,
        networks: started.networks,
        role: started.role,
        runner: Option.getOrNull(started.runner),
        firstRun: Option.getOrNull(Option.map(started.firstRun, ({ accounts, key, workspace }) => ({ workspace, key, accounts }))),
        consoleLink: Option.getOrNull(Option.map(started.firstRun, ({ consoleLink }) => consoleLink))
      }, () => Start.banner(started))
    ).pipe(Effect.onInterrupt(() => Start.stopped(json)))
  )).pipe(Command.withDescription("Start the service: REST API, docs, MCP and background work"))

const migrate = Command.make("migrate", { json }, ({ json }) =>
  guarded(
    json,
    Effect.gen(function*() {
      const settings = yield* Settings.load
      if (Option.isNone(settings.databaseUrl)) {
        const holder = yield* DataDirLock.readLock(settings.dataDir)
        if (Option.isSome(holder)) {
          // A running server applied every migration it knows when it started.
          return yield* Output.result(json, { migrated: true, by: "server", pid: holder.value.pid }, () => [
            `The server (pid ${holder.value.pid}) holds ${settings.dataDir} and migrated it when it started.`
          ])
        }
      }
      // Opening the database applies what is pending; the layer reports what that was.
      const applied = yield* DatabaseInfo.DatabaseInfo.pipe(
        Effect.map((info) => info.appliedMigrations.map(([id, name]) => `${String(id).padStart(4, "0")}_${name}`)),
        Effect.provide(
          Option.match(settings.databaseUrl, {
            onNone: () => Database.layerEmbedded({ dataDir: settings.dataDir }),
            onSome: Database.layerUrl
          })
        ),
        Effect.scoped
      )
      yield* Output.result(json, { migrated: true, by: "cli", applied }, () => [
        applied.length === 0 ? "The database is up to date." : `Applied: ${applied.join(", ")}`
      ])
    })
  )).pipe(Command.withDescription("Bring the database schema up to date"))

const workspaceCreate = Command.make("create", {
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

const workspaceList = Command.make("list", { json }, ({ json }) =>
  withAdmin(json, (admin) =>
    admin.listWorkspaces.pipe(
      Effect.flatMap((workspaces) =>
        Output.result(json, workspaces, () =>
          workspaces.length === 0
            ? ["No workspaces."]
            : workspaces.map((workspace) => `${workspace.id}  ${workspace.name}  (created ${workspace.createdAt})`))
      )
    ))).pipe(Command.withDescription("List workspaces"))

const workspaceFlag = Flag.String("workspace").pipe(Flag.withDescription("The workspace id (ws_...)"))

const keyCreate = Command.make("create", {
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

const keyList = Command.make("list", { workspace: workspaceFlag, json }, ({ json, workspace }) =>
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

const keyRevoke = Command.make("revoke", {
  keyId: Argument.String("KEY_ID").pipe(Argument.withDescription("The key's id (key_...)")),
  json
}, ({ json, keyId }) =>
  withAdmin(json, (admin) =>
    admin.revokeKey(keyId).pipe(
      Effect.flatMap((key) => Output.result(json, key, () => [`Revoked ${key.id} (${key.name}).`]))
    ))).pipe(Command.withDescription("Revoke an API key; the next request with it is refused"))

const accountConnect = Command.make("connect", {
  workspace: workspaceFlag,
  platform: Flag.String("platform").pipe(Flag.withDescription("The network (GET /api/v1/networks lists them)")),
  sandbox: Flag.Boolean("sandbox").pipe(
    Flag.withDescription("Connect a sandbox account (the network's simulator consents at once)"),
    Flag.withDefault(false)
  ),
  username: Flag.String("username").pipe(Flag.withDescription("The sandbox account's username"), Flag.optional),
  field: Flag.KeyValuePair("field").pipe(
    Flag.withDescription("A field the network's connect method asks (name=value, repeatable): e.g. identifier=… password=…"),
    Flag.optional
  ),
  server: Flag.String("server").pipe(
    Flag.withDescription("The account's server, for a network of many servers (its address, e.g. social.example.org)"),
    Flag.optional
  ),
  json
}, ({ field, json, platform, sandbox, server, username, workspace }) => {
  const connected = (account: Account.Account) =>
    Output.result(json, account, () => [
      `Connected @${account.username} on ${account.platform}: ${account.id} (${account.status}).`
    ])
  if (sandbox) {
    return withAdmin(json, (admin) =>
      admin.connectSandbox({
        workspaceId: workspace,
        platform,
        ...(Option.isSome(username) ? { username: username.value } : {}),
        ...(Option.isSome(server) ? { server: server.value } : {})
      }).pipe(Effect.flatMap(connected)))
  }
  if (Option.isSome(field)) {
    return withAdmin(json, (admin) =>
      admin.signIn({ workspaceId: workspace, platform, fields: field.value }).pipe(Effect.flatMap(connected)))
  }
  const body = JSON.stringify(Option.isSome(server) ? { server: server.value } : {})
  return guarded(
    json,
    Effect.fail({
      message: `Real accounts connect in a browser: POST /api/v1/accounts/connect/${platform} with the body ${body}` +
        " and an API key of the workspace, and open the URL it answers (or add --sandbox; a network that signs in" +
        " with fields takes them as --field name=value)",
      code: "invalid"
    })
  )
}).pipe(Command.withDescription(
  "Connect an account: with --sandbox through the sandbox in one step; with --field name=value for a network that signs in with fields"
))

const accountList = Command.make("list", { workspace: workspaceFlag, json }, ({ json, workspace }) =>
  withAdmin(json, (admin) =>
    admin.listAccounts(workspace).pipe(
      Effect.flatMap((accounts) =>
        Output.result(json, accounts, () =>
          accounts.length === 0
            ? ["No accounts."]
            : accounts.map((account) => `${account.id}  ${account.platform}  @${account.username}  ${account.status}`))
      )
    ))).pipe(Command.withDescription("List a workspace's connected accounts"))

const mediaUpload = Command.make("upload", {
  file: Argument.String("FILE").pipe(Argument.withDescription("A photo (.jpg, .jpeg, .png, .webp) or video (.mp4, .mov)")),
  workspace: workspaceFlag,
  alt: Flag.String("alt").pipe(
    Flag.withDescription("Alt text: what the photo or video shows, for people who cannot see it (at most 1,500 characters)"),
    Flag.optional
  ),
  json
}, ({ alt, file, json, workspace }) =>
  withAdmin(json, (admin) =>
    admin.uploadMedia({
      workspaceId: workspace,
      path: resolve(file),
      ...(Option.isSome(alt) ? { alt: alt.value } : {})
    }).pipe(
      Effect.flatMap((media) =>
        Output.result(json, media, () => [
          `Uploaded ${media.id} (${media.kind}, ${media.bytes} bytes): ${media.url}`,
          ...(media.alt === null ? [] : [`Alt text: ${media.alt}`]),
          ...media.fitted.map((copy) => `Fitted to ${copy.maxBytes} bytes: ${copy.bytes} bytes, ${copy.width}x${copy.height} (${copy.url})`)
        ])
      )
    ))).pipe(Command.withDescription(
  "Upload a photo or video from this machine for a workspace's posts, as POST /api/v1/media does (--alt sets its alt text)"
))

const roleFlag = Flag.String("role").pipe(Flag.withDescription("owner, admin, editor or viewer"))
const memberArgument = Argument.String("MEMBER_ID").pipe(Argument.withDescription("The member's id (mem_...)"))

const memberList = Command.make("list", { workspace: workspaceFlag, json }, ({ json, workspace }) =>
  withAdmin(json, (admin) =>
    admin.listMembers(workspace).pipe(
      Effect.flatMap((members) =>
        Output.result(json, members, () =>
          members.length === 0
            ? ["No members."]
            : members.map((member) => `${member.id}  ${member.email}  ${member.role}  since ${member.createdAt}`))
      )
    ))).pipe(Command.withDescription("List a workspace's members and their roles"))

const memberInvite = Command.make("invite", {
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

const memberLoginLink = Command.make("login-link", {
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

const memberRole = Command.make("role", { memberId: memberArgument, role: roleFlag, json }, ({ json, memberId, role }) =>
  withAdmin(json, (admin) =>
    admin.changeRole(memberId, role).pipe(
      Effect.flatMap((member) => Output.result(json, member, () => [`${member.email} (${member.id}) is now ${member.role}.`]))
    ))).pipe(Command.withDescription("Change a member's role (a workspace keeps at least one owner)"))

const memberRemove = Command.make("remove", { memberId: memberArgument, json }, ({ json, memberId }) =>
  withAdmin(json, (admin) =>
    admin.removeMember(memberId).pipe(
      Effect.flatMap((member) => Output.result(json, member, () => [`Removed ${member.email} (${member.id}).`]))
    ))).pipe(Command.withDescription("Remove a member from its workspace (not its only owner)"))

// Only the value on stdout, so that `HERALD_SECRET_KEY=$(./herald secret generate)` takes it as it is.
const secretGenerate = Command.make("generate", { json }, ({ json }) =>
  Effect.flatMap(SecretKey.generate, (secret) => Output.result(json, { secret }, () => [secret]))).pipe(
    Command.withDescription("Print a new HERALD_SECRET_KEY value: 32 random bytes as 64 hex characters")
  )

const mcp = Command.make("mcp", {
  url: Flag.String("url").pipe(
    Flag.withDescription("The Herald to reach, as its base URL (https://herald.example.com); HERALD_URL when not given"),
    Flag.withFallbackConfig(Config.String("HERALD_URL"))
  ),
  key: Flag.Redacted("key").pipe(
    Flag.withDescription("An API key of the workspace (hrld_...); HERALD_API_KEY when not given"),
    Flag.withFallbackConfig(Config.Redacted("HERALD_API_KEY"))
  )
}, ({ key, url }) =>
  Effect.gen(function*() {
    const base = yield* Effect.try({ try: () => new URL(url), catch: () => `--url ${url} is not a URL` })
    if (base.protocol !== "https:" && base.protocol !== "http:") return yield* Effect.fail(`--url ${url} is not an http(s) URL`)
    // Imported here, so that the MCP SDK's client is loaded by `herald mcp` alone, not by `herald start`.
    const { run } = yield* Effect.promise(() => import("./McpBridge.ts"))
    yield* run({ url: base, key })
  }).pipe(
    Effect.catch((message: string) =>
      Effect.sync(() => {
        process.stderr.write(`herald mcp: ${message}\n`)
        process.exitCode = 2
      })
    )
  )).pipe(Command.withDescription(
    "An MCP server on stdio that forwards to a Herald's /api/mcp with the key: for assistants that cannot set headers"
  ))

export const herald = Command.make("herald").pipe(
  Command.withDescription("Herald: schedule and publish social posts"),
  Command.withSubcommands([
    start,
    migrate,
    mcp,
    Command.make("workspace").pipe(
      Command.withDescription("Workspaces"),
      Command.withSubcommands([workspaceCreate, workspaceList])
    ),
    Command.make("key").pipe(
      Command.withDescription("API keys"),
      Command.withSubcommands([keyCreate, keyList, keyRevoke])
    ),
    Command.make("account").pipe(
      Command.withDescription("Connected accounts"),
      Command.withSubcommands([accountConnect, accountList])
    ),
    Command.make("media").pipe(
      Command.withDescription("Photos and videos for posts"),
      Command.withSubcommands([mediaUpload])
    ),
    Command.make("member").pipe(
      Command.withDescription("Workspace members and invitations"),
      Command.withSubcommands([memberList, memberInvite, memberLoginLink, memberRole, memberRemove])
    ),
    Command.make("secret").pipe(
      Command.withDescription("Secrets for the settings"),
      Command.withSubcommands([secretGenerate])
    )
  ])
)
