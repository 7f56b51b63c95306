import { Clock, Context, Duration, Effect, Layer, Option, Redacted, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { Adapter, Connect, Pkce, type PublishError } from "@herald/adapter-kit"
import { Account, Ids as DomainIds } from "@herald/domain"
import * as DieOnSql from "./internal/dieOnSql.ts"
import { Accounts } from "./Accounts.ts"
import { Cipher } from "./Cipher.ts"
import * as Events from "./Events.ts"
import * as Ids from "./Ids.ts"
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

/**
 * What a person sent to connect an account does not fit the network's connect method: a field it does not
 * ask, one it needs and lacks, a server address that is none. `field` names it.
 */
export class InvalidConnect extends Schema.TaggedError<InvalidConnect>()("InvalidConnect", {
  field: Schema.String,
  message: Schema.String
}) {}

/**
 * The account's server as stored: `https://` added when no scheme is given, no trailing slash, no query;
 * a path is kept (a sandbox simulator lives under one).
 */
export const normalizeServer = (input: string): string | undefined => {
  const trimmed = input.trim()
  if (trimmed === "") return undefined
  const url = URL.parse(/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`)
  if (url === null) return undefined
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username !== "" || url.password !== "") return undefined
  if (url.search !== "" || url.hash !== "") return undefined
  return `${url.protocol}//${url.host.toLowerCase()}${url.pathname.replace(/\/+$/, "")}`
}

/** The fields a connect method takes, checked against what was sent: unknown and missing ones refused. */
export const checkFields = (
  platform: string,
  connect: Connect.Connect,
  given: Readonly<Record<string, string | undefined>>
): InvalidConnect | Record<string, string> => {
  const known = new Set(connect.fields.map((field) => field.name))
  for (const name of Object.keys(given)) {
    if (!known.has(name) && given[name] !== undefined) {
      const asked = connect.fields.map((field) => field.name)
      return new InvalidConnect({
        field: name,
        message: `${platform} does not ask for "${name}"` +
          (asked.length === 0 ? " (it asks for nothing)" : ` (it asks for ${asked.map((n) => `"${n}"`).join(", ")})`)
      })
    }
  }
  const fields: Record<string, string> = {}
  for (const field of connect.fields) {
    const value = given[field.name]
    if (value === undefined || value.trim() === "") {
      if (field.required) return new InvalidConnect({ field: field.name, message: `${platform} needs "${field.name}" (${field.label})` })
      continue
    }
    fields[field.name] = value
  }
  return fields
}

/** `returnTo` is not a console path: refused, so the callback can never send a person elsewhere. */
export class InvalidReturnTo extends Schema.TaggedError<InvalidReturnTo>()("InvalidReturnTo", {
  returnTo: Schema.String
}) {
  override get message() {
    return "returnTo must be a path under /app/ (such as /app/accounts), without a host, query or fragment"
  }
}

// Path segments of letters, digits and `-_.~`, none starting with a dot (so no `..`), under `/app/`: no
// host, no scheme, no `//`, no backslash, no percent-encoding for a browser to reinterpret.
const segment = "[A-Za-z0-9_~-][A-Za-z0-9._~-]*"
const consolePath = new RegExp(`^/app/(?:${segment}(?:/${segment})*/?)?$`)

/** Whether `path` may be a `returnTo`: a path under the console's `/app/`. */
export const isReturnPath = (path: string): boolean => path.length <= 200 && consolePath.test(path)

// The console page to come back to travels in the `state` itself, after the random part and a dot (not
// in base64url's alphabet): the network hands the state back untouched, so the callback knows where to
// send the person even when the flow failed, and a forged state can name only a console path.
const withReturnTo = (state: string, returnTo: string | undefined) =>
  returnTo === undefined ? state : `${state}.${Buffer.from(returnTo).toString("base64url")}`

/** The console path a callback's `state` asks to come back to, if any (and only a valid one). */
export const returnTo = (state: string | undefined): string | undefined => {
  const dot = state?.lastIndexOf(".") ?? -1
  if (state === undefined || dot < 0) return undefined
  const path = Buffer.from(state.slice(dot + 1), "base64url").toString("utf8")
  return isReturnPath(path) ? path : undefined
}

// A consent screen left open longer than this must be started again.
const stateLifetime = Duration.minutes(15)

interface StateRow {
  readonly workspaceId: string
  readonly platform: string
  readonly codeVerifier: Uint8Array | null
  readonly redirectUri: string
  readonly server: string | null
  readonly expiresAt: Date
}

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
        const stored = () =>
          sql<{ readonly clientId: string; readonly clientSecret: Uint8Array }>`
            SELECT client_id, client_secret FROM network_apps WHERE network = ${adapter.network} AND server = ${server}`
        const open = (row: { readonly clientId: string; readonly clientSecret: Uint8Array }) =>
          Effect.map(Effect.mapError(cipher.open(row.clientSecret), (error) => failed(error.message)), (clientSecret): Adapter.AppClient => ({
            clientId: row.clientId,
            clientSecret
          }))
        const [known] = yield* stored()
        if (known !== undefined) return yield* open(known)
        if (adapter.oauth.registerApp === undefined) return undefined
        const registered = yield* adapter.oauth.registerApp({ server, redirectUri }).pipe(
          Effect.mapError((error) => failed(`${server} refused to register Herald: ${error.reason.message}`))
        )
        yield* sql`
          INSERT INTO network_apps (network, server, client_id, client_secret)
          VALUES (${adapter.network}, ${server}, ${registered.clientId}, ${cipher.seal(registered.clientSecret)})
          ON CONFLICT (network, server) DO NOTHING`
        const [kept] = yield* stored()
        return kept === undefined ? registered : yield* open(kept)
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
        // The state is single-use: taken and deleted in one statement.
        const [row] = yield* sql<StateRow>`
          DELETE FROM oauth_states WHERE state = ${input.state}
          RETURNING workspace_id, platform, code_verifier, redirect_uri, server, expires_at
        `
        if (row === undefined || row.platform !== input.platform) {
          return yield* failed("This connection link is not valid (unknown or already used state); start again")
        }
        const now = yield* Clock.currentTimeMillis
        if (row.expiresAt.getTime() <= now) return yield* failed("This connection link expired; start again")
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
        const [row] = yield* sql<Pick<StateRow, "workspaceId" | "platform" | "expiresAt">>`
          DELETE FROM oauth_states WHERE state = ${input.state} RETURNING workspace_id, platform, expires_at`
        const now = yield* Clock.currentTimeMillis
        return row === undefined || row.platform !== input.platform || row.expiresAt.getTime() <= now
          ? Option.none<string>()
          : Option.some(row.workspaceId)
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

      /** Stores a connected account (a new one, or one connected again, keeping its id) and announces it. */
      const store = Effect.fn("Connections.store")(function*(input: {
        readonly adapter: Adapter.Adapter
        readonly workspaceId: string
        readonly platform: string
        readonly signedIn: Adapter.SignedIn
        readonly signIn: "oauth" | "credentials"
      }) {
        const { adapter, signedIn: { profile, server, tokens } } = input
        const row = { workspaceId: input.workspaceId }
        const id = yield* Ids.make(DomainIds.prefixes.account)
        const refreshToken = Option.getOrNull(Option.map(tokens.refreshToken, (token) => cipher.seal(token)))
        const expiresAt = Option.getOrNull(Option.map(tokens.expiresAt, (millis) => new Date(millis)))
        // Reconnecting an account that exists keeps its id, and its refresh token when the network sent none.
        const [stored] = yield* sql.withTransaction(Effect.gen(function*() {
        const rows = yield* sql<{
          readonly id: string
          readonly platform: string
          readonly username: string
          readonly displayName: string | null
          readonly avatarUrl: string | null
          readonly status: Account.AccountStatus
          readonly connectedAt: Date
        }>`
          INSERT INTO accounts (id, workspace_id, platform, username, display_name, avatar_url, status,
            network_account_id, access_token, refresh_token, token_expires_at, scopes, server, sign_in, connected_at)
          VALUES (${id}, ${row.workspaceId}, ${input.platform}, ${profile.username}, ${profile.displayName},
            ${profile.avatarUrl}, 'connected', ${profile.networkAccountId}, ${cipher.seal(tokens.accessToken)},
            ${refreshToken}, ${expiresAt}, ${tokens.scopes.join(" ")}, ${server}, ${input.signIn}, now())
          ON CONFLICT (workspace_id, platform, network_account_id) DO UPDATE SET
            username = excluded.username, display_name = excluded.display_name, avatar_url = excluded.avatar_url,
            status = 'connected', status_reason = NULL, access_token = excluded.access_token,
            refresh_token = coalesce(excluded.refresh_token, accounts.refresh_token),
            token_expires_at = excluded.token_expires_at, scopes = excluded.scopes, server = excluded.server,
            sign_in = excluded.sign_in, updated_at = now()
          RETURNING id, platform, username, display_name, avatar_url, status, connected_at
        `
        // Announced with the change (the outbox), so a receiver hears of every connection that committed.
        yield* Events.record(sql, row.workspaceId, "account.connected", {
          accountId: rows[0]!.id,
          platform: rows[0]!.platform,
          username: rows[0]!.username
        })
        return rows
        }))
        yield* accounts.changed(row.workspaceId)
        // The inbox starts now: what the account received before it was connected is not news, and what
        // arrives from here on is (left to the first polling round, what came in between would be lost).
        // A reconnection keeps the cursor it had. Should this read fail, the first round sets it instead.
        if (adapter.inbox !== undefined) {
          yield* adapter.inbox.fetch({
            account: { networkAccountId: profile.networkAccountId, username: profile.username, accessToken: tokens.accessToken, server },
            cursor: null
          }).pipe(
            Effect.flatMap((page) =>
              sql`
                INSERT INTO inbox_cursors (account_id, cursor) VALUES (${stored!.id}, ${page.cursor})
                ON CONFLICT (account_id) DO UPDATE SET cursor = coalesce(inbox_cursors.cursor, excluded.cursor)`
            ),
            Effect.catchCause((cause) => Effect.logWarning("The inbox's starting point could not be read; the first round sets it", cause))
          )
        }
        return new Account.Account({
          id: DomainIds.AccountId.make(stored!.id),
          platform: stored!.platform as Account.Account["platform"],
          username: stored!.username,
          displayName: stored!.displayName,
          avatarUrl: stored!.avatarUrl,
          status: stored!.status,
          statusReason: null,
          connectedAt: stored!.connectedAt.toISOString()
        })
      })

      const disconnect = Effect.fn("Connections.disconnect")(function*(workspaceId: string, accountId: string) {
        yield* sql.withTransaction(Effect.gen(function*() {
          const rows = yield* sql<{ readonly platform: string }>`
            UPDATE accounts SET status = 'disconnected', access_token = NULL, refresh_token = NULL, updated_at = now()
            WHERE id = ${accountId} AND workspace_id = ${workspaceId} AND status <> 'disconnected'
            RETURNING platform
          `
          if (rows.length === 0) return yield* new AccountNotFound({ accountId })
          yield* Events.record(sql, workspaceId, "account.disconnected", { accountId, platform: rows[0]!.platform })
        }))
        yield* accounts.changed(workspaceId)
      })

      return Connections.of(DieOnSql.service({ start, complete, cancel, signIn, disconnect }))
    })
  )
}
