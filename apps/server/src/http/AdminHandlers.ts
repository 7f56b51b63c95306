import { Effect, FileSystem, Layer, Option, Path } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { AdminApi, ApiError } from "@herald/api"
import { Accounts, ApiKeys, Connections, Media, Networks, Sessions, Team, Workspaces } from "@herald/core"
import * as MediaFromFile from "../MediaFromFile.ts"
import { answered } from "./ErrorRendering.ts"
import { PublicUrl } from "../PublicUrl.ts"
import * as SandboxConnect from "../SandboxConnect.ts"

const WorkspacesHandlers = HttpApiBuilder.group(
  AdminApi.AdminApi,
  "workspaces",
  Effect.fnUntraced(function*(handlers) {
    const workspaces = yield* Workspaces.Workspaces
    return handlers
      .handle("create", ({ payload }) =>
        workspaces.create(payload).pipe(Effect.map((data) => ({ data })), Effect.orDie))
      .handle("list", () => workspaces.list.pipe(Effect.map((data) => ({ data })), Effect.orDie))
  })
)

const KeysHandlers = HttpApiBuilder.group(
  AdminApi.AdminApi,
  "keys",
  Effect.fnUntraced(function*(handlers) {
    const apiKeys = yield* ApiKeys.ApiKeys
    return handlers
      .handle("create", ({ payload }) =>
        apiKeys.create(payload).pipe(
          Effect.map((data) => ({ data })),
          Effect.catchTag("MemberNotInWorkspace", (error) => Effect.fail(new ApiError.Invalid({ message: error.message }))),
          answered
        ))
      .handle("list", ({ params }) =>
        apiKeys.list(params.workspaceId).pipe(
          Effect.map((data) => ({ data })),
          answered
        ))
      .handle("revoke", ({ params }) =>
        apiKeys.revoke(params.keyId).pipe(
          Effect.map((data) => ({ data })),
          answered
        ))
  })
)

const AccountsHandlers = HttpApiBuilder.group(
  AdminApi.AdminApi,
  "accounts",
  Effect.fnUntraced(function*(handlers) {
    const workspaces = yield* Workspaces.Workspaces
    const accounts = yield* Accounts.Accounts
    const context = yield* Effect.context<SandboxConnect.Requirements>()
    return handlers
      .handle("connectSandbox", ({ payload }) =>
        Effect.gen(function*() {
          yield* answered(workspaces.get(payload.workspaceId))
          const account = yield* SandboxConnect.connect(payload).pipe(
            Effect.catchTag("SandboxConnectFailed", (error) =>
              Effect.fail(new ApiError.Invalid({ message: error.message }))),
            Effect.provideContext(context)
          )
          return { data: account }
        }))
      .handle("signIn", ({ payload }) =>
        Effect.gen(function*() {
          yield* answered(workspaces.get(payload.workspaceId))
          const connections = yield* Connections.Connections
          const account = yield* answered(connections.signIn(payload))
          return { data: account }
        }).pipe(Effect.provideContext(context)))
      .handle("list", ({ params }) =>
        Effect.gen(function*() {
          yield* answered(workspaces.get(params.workspaceId))
          return { data: yield* accounts.list(params.workspaceId) }
        }))
  })
)

const MembersHandlers = HttpApiBuilder.group(
  AdminApi.AdminApi,
  "members",
  Effect.fnUntraced(function*(handlers) {
    const workspaces = yield* Workspaces.Workspaces
    const team = yield* Team.Team
    const sessions = yield* Sessions.Sessions
    return handlers
      .handle("loginLink", ({ payload }) =>
        sessions.loginLink(payload.workspaceId, payload.email).pipe(
          Effect.map((link) => ({ data: new AdminApi.LoginLinkCreated(link) })),
          Effect.catchTag("NotAMember", () =>
            Effect.fail(new ApiError.NotFound({ message: `${payload.email} is not a member of workspace ${payload.workspaceId}` })))
        ))
      .handle("list", ({ params }) =>
        workspaces.members(params.workspaceId).pipe(
          Effect.map((data) => ({ data })),
          answered
        ))
      .handle("invite", ({ payload }) =>
        Effect.gen(function*() {
          yield* workspaces.get(payload.workspaceId)
          return { data: yield* team.invite(payload.workspaceId, payload) }
        }).pipe(answered))
      .handle("changeRole", ({ params, payload }) =>
        Effect.gen(function*() {
          const member = yield* team.member(params.memberId)
          return { data: yield* team.changeRole(member.workspaceId, member.id, payload.role) }
        }).pipe(answered))
      .handle("remove", ({ params }) =>
        Effect.gen(function*() {
          const member = yield* team.member(params.memberId)
          yield* team.remove(member.workspaceId, member.id)
          return { data: member }
        }).pipe(answered))
  })
)

const MediaHandlers = HttpApiBuilder.group(
  AdminApi.AdminApi,
  "media",
  Effect.fnUntraced(function*(handlers) {
    const context = yield* Effect.context<Media.Media | Workspaces.Workspaces | FileSystem.FileSystem | Path.Path | PublicUrl>()
    // The installed networks, whose photo byte limits the upload fits copies to.
    const networks = yield* Effect.serviceOption(Networks.Networks)
    return handlers.handle("upload", ({ payload }) =>
      MediaFromFile.upload(payload).pipe(
        Effect.map((data) => ({ data })),
        Effect.provideContext(context),
        (upload) => Option.isSome(networks) ? Effect.provideService(upload, Networks.Networks, networks.value) : upload
      ))
  })
)

export const layer = Layer.mergeAll(WorkspacesHandlers, KeysHandlers, AccountsHandlers, MembersHandlers, MediaHandlers)
