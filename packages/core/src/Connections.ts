import { Clock, Context, Duration, Effect, Layer, Option, Redacted, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { Adapter, Connect, Pkce, type PublishError } from "@herald/adapter-kit"
import type { Account } from "@herald/domain"
import {
  checkFields,
  InvalidConnect,
  InvalidReturnTo,
  isReturnPath,
  normalizeServer,
  withReturnTo
} from "./internal/connectChecks.ts"
import { connectionStatements } from "./internal/connectionRows.ts"
import { makeStore } from "./internal/connectStore.ts"
import * as DieOnSql from "./internal/dieOnSql.ts"
import { dieOnBadRow } from "./internal/rows.ts"
import { Accounts } from "./Accounts.ts"
import { Cipher } from "./Cipher.ts"
import * as Events from "./Events.ts"
import { Networks, type UnknownNetwork } from "./Networks.ts"

/** Why an OAuth callback or a token could not be used; `message` is for the person connecting. */
export class ConnectionFailed extends Schema.TaggedError<ConnectionFailed>()("ConnectionFailed", {
  message: Schema.String
}) {}

export class AccountNotFound extends Schema.TaggedError<AccountNotFound>()("AccountNotFound", {
  accountId: Schema.String
}) {
  override get message() {
    return `Account ${this.accountId} does not exist`
  }
}

export {
  checkFields,
  InvalidConnect,
  InvalidReturnTo,
  isReturnPath,
  normalizeServer,
  returnTo
} from "./internal/connectChecks.ts"

// A consent screen left open longer than this must be started again.
const stateLifetime = Duration.minutes(15)

/**
 * Connecting accounts, by each network's connect method. OAuth: `start` gives the consent URL and
 * remembers the flow by its `state` (on a network of many servers, after registering Herald's app on the
 * person's server once, reused for every account there); `complete` (the callback) checks the state,
 * exchanges the code, reads the profile and stores the account with its tokens sealed. Credentials:
 * `signIn` hands the fields to the adapter and stores what it answers the same way. Connecting an account
 * again updates it and keeps its id.
 */
export class Connections extends Context.Service<Connections, {
  start(input: {
    readonly workspaceId: string
    readonly platform: string
    readonly redirectUri: string
    readonly sandboxUsername?: string | undefined
    /** A console path to come back to after consent (see `returnTo`). */
    readonly returnTo?: string | undefined
    /** The account's server, for networks of many servers (their connect method asks `server`). */
    readonly server?: string | undefined
  }): Effect.Effect<
    { readonly url: string; readonly state: string; readonly expiresAt: string },
    UnknownNetwork | InvalidReturnTo | InvalidConnect | ConnectionFailed
  >
  /** Signs in to a `credentials` network with the fields its connect method asks. */
  signIn(input: {
    readonly workspaceId: string
    readonly platform: string
    readonly fields: Readonly<Record<string, string>>
  }): Effect.Effect<Account.Account, UnknownNetwork | InvalidConnect | ConnectionFailed>
  complete(input: {
    readonly platform: string
    readonly state: string
    readonly code: string
  }): Effect.Effect<Account.Account, ConnectionFailed | UnknownNetwork>
  /**
   * Ends a flow the network answered with an error instead of a code, using its state up: the workspace the
   * flow was started in when `state` is one Herald issued for this network and still live, else none. The
   * callback repeats the network's words only then, since anyone can link to it with words of their own.
   */
  cancel(input: {
    readonly platform: string
    readonly state: string
  }): Effect.Effect<Option.Option<string>>
  disconnect(workspaceId: string, accountId: string): Effect.Effect<void, AccountNotFound>
}>()("@herald/core/Connections") {
  static readonly layer = Layer.effect(
    Connections,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const networks = yield* Networks
      const cipher = yield* Cipher
      const accounts = yield* Accounts
      const statements = connectionStatements(sql)

      const failed = (message: string) => new ConnectionFailed({ message })
      const fromNetwork = (error: PublishError.PublishError) =>
        failed(`The network refused the connection: ${error.reason.message}`)

      const serverOf = (platform: string, given: string | undefined): Effect.Effect<string | null, InvalidConnect> => {
        if (given === undefined) return Effect.succeed(null)
        const server = normalizeServer(given)
        return server === undefined
          ? Effect.fail(new InvalidConnect({ field: "server", message: `"${given}" is not a server address for ${platform} (a host name such as social.example.org)` }))
          : Effect.succeed(server)
      }

      /**
       * Herald's app on a server of a network of many: the one registered before, or registered now and
       * kept (two flows registering at once keep the first one stored).
       */
      const appOn = Effect.fn("Connections.appOn")(function*(adapter: Adapter.Adapter, server: string, redirectUri: string) {
        const stored = () => dieOnBadRow(statements.networkApp({ network: adapter.network, server }))
        const open = (row: { readonly clientId: string; readonly clientSecret: Uint8Array }) =>
          Effect.map(Effect.mapError(cipher.open(row.clientSecret), (error) => failed(error.message)), (clientSecret): Adapter.AppClient => ({
            clientId: row.clientId,
            clientSecret
          }))
        const known = yield* stored()
        if (Option.isSome(known)) return yield* open(known.value)
        if (adapter.oauth.registerApp === undefined) return undefined
        const registered = yield* adapter.oauth.registerApp({ server, redirectUri }).pipe(
          Effect.mapError((error) => failed(`${server} refused to register Herald: ${error.reason.message}`))
        )
        yield* sql`
          INSERT INTO network_apps (network, server, client_id, client_secret)
          VALUES (${adapter.network}, ${server}, ${registered.clientId}, ${cipher.seal(registered.clientSecret)})
          ON CONFLICT (network, server) DO NOTHING`
        const kept = yield* stored()
        return Option.isNone(kept) ? registered : yield* open(kept.value)
      })

      const start = Effect.fn("Connections.start")(function*(input: {
        readonly workspaceId: string
        readonly platform: string
        readonly redirectUri: string
        readonly sandboxUsername?: string | undefined
        readonly returnTo?: string | undefined
        readonly server?: string | undefined
      }) {
        if (input.returnTo !== undefined && !isReturnPath(input.returnTo)) {
          return yield* new InvalidReturnTo({ returnTo: input.returnTo })
        }
        const adapter = yield* networks.get(input.platform)
        if (adapter.connect.method !== "oauth") {
          return yield* new InvalidConnect({
            field: "platform",
            message: `${input.platform} signs in with ${adapter.connect.method}, not a consent page: ` +
              "POST /api/v1/accounts/connect with { platform, fields }"
          })
        }
        const asksServer = Connect.asksServer(adapter.connect)
        if (asksServer && (input.server === undefined || input.server.trim() === "")) {
          return yield* new InvalidConnect({ field: "server", message: `${input.platform} needs "server": the address of the account's server` })
        }
        if (!asksServer && input.server !== undefined) {
          return yield* new InvalidConnect({ field: "server", message: `${input.platform} has one server and takes no "server"` })
        }
        const server = yield* serverOf(input.platform, input.server)
        const client = server === null ? undefined : yield* appOn(adapter, server, input.redirectUri)
        const state = withReturnTo(Pkce.state(), input.returnTo)
        const verifier = adapter.oauth.pkce ? Pkce.verifier() : undefined
        const now = yield* Clock.currentTimeMillis
        const expiresAt = new Date(now + Duration.toMillis(stateLifetime))
        yield* sql`
          INSERT INTO oauth_states (state, workspace_id, platform, code_verifier, redirect_uri, sandbox_username, server, expires_at)
          VALUES (${state}, ${input.workspaceId}, ${input.platform},
            ${verifier === undefined ? null : cipher.seal(Redacted.make(verifier))}, ${input.redirectUri},
            ${input.sandboxUsername ?? null}, ${server}, ${expiresAt})
        `
        const url = new URL(adapter.oauth.authorizeUrl({
          state,
          redirectUri: input.redirectUri,
          codeChallenge: verifier === undefined ? undefined : Pkce.challenge(verifier),
          ...(server === null ? {} : { server, client })
        }))
        if (input.sandboxUsername !== undefined) url.searchParams.set("sandbox_username", input.sandboxUsername)
        return { url: url.toString(), state, expiresAt: expiresAt.toISOString() }
      })


      const complete = Effect.fn("Connections.complete")(function*(input: {
        readonly platform: string
        readonly state: string
        readonly code: string
      }) {
        const adapter = yield* networks.get(input.platform)
        const taken = yield* dieOnBadRow(statements.stateTaken(input.state))
        if (Option.isNone(taken) || taken.value.platform !== input.platform) {
          return yield* failed("This connection link is not valid (unknown or already used state); start again")
        }
        const row = taken.value
        const now = yield* Clock.currentTimeMillis
        if (Date.parse(row.expiresAt) <= now) return yield* failed("This connection link expired; start again")
        const verifier = row.codeVerifier === null
          ? undefined
          : Redacted.value(yield* Effect.mapError(cipher.open(row.codeVerifier), (error) => failed(error.message)))
        const context: Adapter.ServerContext = row.server === null
          ? {}
          : { server: row.server, client: yield* appOn(adapter, row.server, row.redirectUri) }
        const tokens = yield* adapter.oauth.exchange({
          code: input.code,
          redirectUri: row.redirectUri,
          codeVerifier: verifier,
          ...context
        }).pipe(Effect.mapError(fromNetwork))
        const profile = yield* Effect.mapError(
          row.server === null ? adapter.oauth.profile(tokens.accessToken) : adapter.oauth.profile(tokens.accessToken, context),
          fromNetwork
        )
        return yield* store({
          adapter,
          workspaceId: row.workspaceId,
          platform: input.platform,
          signedIn: { tokens, profile, server: row.server },
          signIn: "oauth"
        })
      })

      const cancel = Effect.fn("Connections.cancel")(function*(input: { readonly platform: string; readonly state: string }) {
        const row = yield* dieOnBadRow(statements.stateCancelled(input.state))
        const now = yield* Clock.currentTimeMillis
        return Option.map(
          Option.filter(row, (taken) => taken.platform === input.platform && Date.parse(taken.expiresAt) > now),
          (taken) => taken.workspaceId
        )
      })

      const signIn = Effect.fn("Connections.signIn")(function*(input: {
        readonly workspaceId: string
        readonly platform: string
        readonly fields: Readonly<Record<string, string>>
      }) {
        const adapter = yield* networks.get(input.platform)
        if (adapter.connect.method !== "credentials" || adapter.credentials === undefined) {
          return yield* new InvalidConnect({
            field: "platform",
            message: `${input.platform} connects through its consent page: POST /api/v1/accounts/connect/${input.platform}`
          })
        }
        const checked = checkFields(input.platform, adapter.connect, input.fields)
        if (checked instanceof InvalidConnect) return yield* checked
        const signedIn = yield* adapter.credentials.signIn(checked).pipe(
          Effect.mapError((error) => error._tag === "SignInRefused" ? failed(error.message) : fromNetwork(error))
        )
        return yield* store({ adapter, workspaceId: input.workspaceId, platform: input.platform, signedIn, signIn: "credentials" })
      })

      const store = makeStore(sql, cipher, accounts)

      const disconnect = Effect.fn("Connections.disconnect")(function*(workspaceId: string, accountId: string) {
        yield* sql.withTransaction(Effect.gen(function*() {
          const row = yield* dieOnBadRow(statements.disconnected({ workspaceId, accountId }))
          if (Option.isNone(row)) return yield* new AccountNotFound({ accountId })
          yield* Events.record(sql, workspaceId, "account.disconnected", { accountId, platform: row.value.platform })
        }))
        yield* accounts.changed(workspaceId)
      })

      return Connections.of(DieOnSql.service({ start, complete, cancel, signIn, disconnect }))
    })
  )
}
