import { Effect, Option } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import type { Account } from "@herald/domain"
import { resolve } from "node:path"
import * as Output from "../Output.ts"
import { guarded, json, withAdmin, workspaceFlag } from "./commandRun.ts"

// `herald account` and `herald media`: connecting a workspace's accounts and uploading its media, through the
// admin service. Apart from `Commands.ts`, which puts the command tree together.

export const accountConnect = Command.make("connect", {
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

export const accountList = Command.make("list", { workspace: workspaceFlag, json }, ({ json, workspace }) =>
  withAdmin(json, (admin) =>
    admin.listAccounts(workspace).pipe(
      Effect.flatMap((accounts) =>
        Output.result(json, accounts, () =>
          accounts.length === 0
            ? ["No accounts."]
            : accounts.map((account) => `${account.id}  ${account.platform}  @${account.username}  ${account.status}`))
      )
    ))).pipe(Command.withDescription("List a workspace's connected accounts"))

export const mediaUpload = Command.make("upload", {
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
