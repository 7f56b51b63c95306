import { Context, Effect, Layer, Option, Schema } from "effect"
import { HttpClient, HttpClientRequest } from "effect/http"
import { HttpApiClient } from "effect/http-api"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { AdminApi, type MediaApi } from "@herald/api"
import { Accounts, ApiKeys, Connections, ErrorShape, Sessions, Settings, Team, Workspaces } from "@herald/core"
import { Main, MediaFromFile, Packages, SandboxConnect } from "@herald/server"
import { type SqlClient, SqlError } from "effect/sql"
import type { PgClient } from "@effect/sql-pg"
import type { Account, ApiKey, Workspace } from "@herald/domain"
import type { DatabaseInfo } from "@herald/db"

/** A command that could not be carried out; `code` uses the API's error codes. */
export class AdminError extends Schema.TaggedError<AdminError>()("AdminError", {
  code: Schema.Literals(["invalid", "not_found", "conflict", "too_large", "unavailable", "internal"]),
  message: Schema.String
}) {}

/**
 * Every domain error as the AdminError of its code (ErrorShape), its own message, as the admin socket answers
 * it: the direct mode lists no tags. The codes the admin's errors answer are all among AdminError's; any other
 * would be a bug here, said as `internal`.
 */
const answered = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, ErrorShape.Unanswered<E> | AdminError, R> =>
  Effect.catch(self, (error: unknown) => {
    if (!ErrorShape.isDomainError(error)) return Effect.fail(error)
    const { code, message } = ErrorShape.of(error)
    return Effect.fail(new AdminError({ code: adminCodes.includes(code) ? code as AdminError["code"] : "internal", message }))
  }) as Effect.Effect<A, ErrorShape.Unanswered<E> | AdminError, R>
const adminCodes: ReadonlyArray<string> = AdminError.fields.code.literals

/** What the `herald` command does to workspaces and keys, whether on the database or through a running server. */
export class Admin extends Context.Service<Admin, {
  createWorkspace(input: typeof AdminApi.CreateWorkspace.Type): Effect.Effect<Workspace.Workspace, AdminError>
  readonly listWorkspaces: Effect.Effect<ReadonlyArray<Workspace.Workspace>, AdminError>
  createKey(input: typeof AdminApi.CreateKey.Type): Effect.Effect<ApiKey.CreatedApiKey, AdminError>
  listKeys(workspaceId: string): Effect.Effect<ReadonlyArray<ApiKey.ApiKey>, AdminError>
  revokeKey(keyId: string): Effect.Effect<ApiKey.ApiKey, AdminError>
  connectSandbox(input: typeof AdminApi.ConnectSandbox.Type): Effect.Effect<Account.Account, AdminError>
  signIn(input: typeof AdminApi.SignIn.Type): Effect.Effect<Account.Account, AdminError>
  listAccounts(workspaceId: string): Effect.Effect<ReadonlyArray<Account.Account>, AdminError>
  listMembers(workspaceId: string): Effect.Effect<ReadonlyArray<Workspace.Member>, AdminError>
  inviteMember(input: typeof AdminApi.InviteMember.Type): Effect.Effect<Workspace.Invitation, AdminError>
  changeRole(memberId: string, role: string): Effect.Effect<Workspace.Member, AdminError>
  removeMember(memberId: string): Effect.Effect<Workspace.Member, AdminError>
  loginLink(input: typeof AdminApi.LoginLink.Type): Effect.Effect<AdminApi.LoginLinkCreated, AdminError>
  /** A file on this machine (an absolute path), uploaded as `POST /api/v1/media` would take it. */
  uploadMedia(input: typeof AdminApi.UploadMedia.Type): Effect.Effect<MediaApi.MediaObject, AdminError>
}>()("@herald/cli/Admin") {
  /** Straight on the database: used when no server holds the embedded one, and always with PostgreSQL. */
  static readonly layerDirect = Layer.effect(
    Admin,
    Effect.gen(function*() {
      const workspaces = yield* Workspaces.Workspaces
      const apiKeys = yield* ApiKeys.ApiKeys
      const accounts = yield* Accounts.Accounts
      const team = yield* Team.Team
      const sessions = yield* Sessions.Sessions
      const database = yield* Effect.context<SqlClient.SqlClient | PgClient.PgClient | DatabaseInfo.DatabaseInfo>()
      const notFound = (error: { readonly message: string }) =>
        Effect.fail(new AdminError({ code: "not_found", message: error.message }))
      const internal = (error: { readonly message: string }) =>
        Effect.fail(new AdminError({ code: "internal", message: error.message }))
      // The core's services die on a database error (it is no caller's to handle); here, on the database
      // directly, the command says so as `internal` rather than crashing.
      const onSql = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        Effect.catchDefect(effect, (defect) => SqlError.isSqlError(defect) ? internal(defect) : Effect.die(defect))
      const sqlAsInternal = (admin: Admin["Service"]): Admin["Service"] =>
        Object.fromEntries(
          Object.entries(admin).map(([name, member]) => [
            name,
            typeof member === "function"
              ? (...args: ReadonlyArray<unknown>) => onSql((member as (...args: ReadonlyArray<unknown>) => Effect.Effect<unknown>)(...args))
              : onSql(member as Effect.Effect<unknown>)
          ])
        ) as Admin["Service"]
      // No server holds the database: run one briefly on a free local port, so the account is connected
      // through the same code path (and, in the sandbox, the same simulators) a server would use.
      const withServer = <A, R>(workspaceId: string, connect: Effect.Effect<A, AdminError, R>) =>
        Effect.gen(function*() {
          yield* answered(workspaces.get(workspaceId))
          const settings = yield* Effect.mapError(Settings.load, (error) =>
            new AdminError({ code: "invalid", message: error.message }))
          const server = Main.layerWith(
            { ...settings, port: 0, host: "127.0.0.1", baseUrl: Option.none() },
            Layer.succeedContext(database),
            false,
            Packages.all
          )
          return yield* connect.pipe(
            Effect.provide(server),
            Effect.mapError((error) => error instanceof AdminError ? error : new AdminError({ code: "internal", message: String(error) }))
          )
        }).pipe(Effect.scoped)
      return sqlAsInternal(Admin.of({
        loginLink: (input) =>
          sessions.loginLink(input.workspaceId, input.email).pipe(
            Effect.map((link) => new AdminApi.LoginLinkCreated(link)),
            Effect.catchTag("NotAMember", () => notFound({ message: `${input.email} is not a member of workspace ${input.workspaceId}` }))
          ),
        listMembers: (workspaceId) =>
          answered(workspaces.members(workspaceId)),
        inviteMember: (input) =>
          workspaces.get(input.workspaceId).pipe(
            Effect.andThen(team.invite(input.workspaceId, input)),
            answered
          ),
        changeRole: (memberId, role) =>
          team.member(memberId).pipe(
            Effect.flatMap((member) => team.changeRole(member.workspaceId, member.id, role)),
            answered
          ),
        removeMember: (memberId) =>
          team.member(memberId).pipe(
            Effect.tap((member) => team.remove(member.workspaceId, member.id)),
            answered
          ),
        createWorkspace: (input) => workspaces.create(input),
        listWorkspaces: workspaces.list,
        createKey: (input) =>
          apiKeys.create(input).pipe(
            Effect.catchTag("MemberNotInWorkspace", (error) => Effect.fail(new AdminError({ code: "invalid", message: error.message }))),
            answered
          ),
        listKeys: (workspaceId) =>
          answered(apiKeys.list(workspaceId)),
        revokeKey: (keyId) =>
          answered(apiKeys.revoke(keyId)),
        listAccounts: (workspaceId) =>
          workspaces.get(workspaceId).pipe(
            Effect.andThen(accounts.list(workspaceId)),
            answered
          ),
        connectSandbox: (input) =>
          withServer(input.workspaceId, SandboxConnect.connect(input).pipe(
            Effect.mapError((error) =>
              new AdminError({
                code: error._tag === "SandboxConnectFailed" ? "invalid" : "internal",
                message: error.message
              })
            )
          )),
        uploadMedia: (input) =>
          withServer(input.workspaceId, MediaFromFile.upload(input).pipe(
            Effect.mapError((error) =>
              new AdminError({
                code: error._tag === "NotFound"
                  ? "not_found"
                  : error._tag === "TooLarge"
                  ? "too_large"
                  : error._tag === "Invalid"
                  ? "invalid"
                  : "internal",
                message: error.message
              })
            )
          )),
        signIn: (input) =>
          withServer(input.workspaceId, answered(Effect.flatMap(Connections.Connections, (connections) => connections.signIn(input))))
      }))
    })
  )

  /** Through the admin socket of the server that holds the embedded database. */
  static readonly layerRemote = (socketPath: string) =>
    Layer.effect(
      Admin,
      Effect.gen(function*() {
        const client = yield* HttpApiClient.make(AdminApi.AdminApi, {
          transformClient: HttpClient.mapRequest(HttpClientRequest.prependUrl("http://herald.local"))
        })
        const remote = <A, E extends { readonly _tag: string; readonly message?: string }, R>(
          effect: Effect.Effect<{ readonly data: A }, E, R>
        ) =>
          effect.pipe(
            Effect.map((body) => body.data),
            Effect.mapError((error) =>
              new AdminError({
                code: error._tag === "NotFound"
                  ? "not_found"
                  : error._tag === "Invalid"
                  ? "invalid"
                  : error._tag === "Conflict"
                  ? "conflict"
                  : error._tag === "TooLarge"
                  ? "too_large"
                  : "unavailable",
                message: error._tag === "NotFound" || error._tag === "Invalid" || error._tag === "Conflict" ||
                    error._tag === "TooLarge"
                  ? error.message ?? error._tag
                  : `The running server did not answer on ${socketPath}: ${error.message ?? error._tag}`
              })
            )
          )
        return Admin.of({
          createWorkspace: (input) => remote(client.workspaces.create({ payload: input })),
          listWorkspaces: remote(client.workspaces.list()),
          createKey: (input) => remote(client.keys.create({ payload: input })),
          listKeys: (workspaceId) => remote(client.keys.list({ params: { workspaceId } })),
          revokeKey: (keyId) => remote(client.keys.revoke({ params: { keyId } })),
          connectSandbox: (input) => remote(client.accounts.connectSandbox({ payload: input })),
          signIn: (input) => remote(client.accounts.signIn({ payload: input })),
          listAccounts: (workspaceId) => remote(client.accounts.list({ params: { workspaceId } })),
          listMembers: (workspaceId) => remote(client.members.list({ params: { workspaceId } })),
          inviteMember: (input) => remote(client.members.invite({ payload: input })),
          changeRole: (memberId, role) => remote(client.members.changeRole({ params: { memberId }, payload: { role } })),
          removeMember: (memberId) => remote(client.members.remove({ params: { memberId } })),
          loginLink: (input) => remote(client.members.loginLink({ payload: input })),
          uploadMedia: (input) => remote(client.media.upload({ payload: input }))
        })
      })
    ).pipe(Layer.provide(NodeHttpClient.layerNodeHttpOptions({ socketPath })))
}
