import { Clock, Context, Duration, Effect, Layer, Option, Redacted, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { Pkce, type PublishError } from "@herald/adapter-kit"
import { Account, Ids as DomainIds } from "@herald/domain"
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
  readonly expiresAt: Date
}

/**
 * Connecting accounts through each network's OAuth: `start` gives the consent URL and remembers the flow
 * by its `state`; `complete` (the callback) checks the state, exchanges the code, reads the profile and
 * stores the account with its tokens sealed. Connecting an account again updates it and keeps its id.
 */
export class Connections extends Context.Service<Connections, {
  start(input: {
    readonly workspaceId: string
    readonly platform: string
    readonly redirectUri: string
    readonly sandboxUsername?: string | undefined
    /** A console path to come back to after consent (see `returnTo`). */
    readonly returnTo?: string | undefined
  }): Effect.Effect<
    { readonly url: string; readonly state: string; readonly expiresAt: string },
    UnknownNetwork | InvalidReturnTo | SqlError.SqlError
  >
  complete(input: {
    readonly platform: string
    readonly state: string
    readonly code: string
  }): Effect.Effect<Account.Account, ConnectionFailed | UnknownNetwork | SqlError.SqlError>
  disconnect(workspaceId: string, accountId: string): Effect.Effect<void, AccountNotFound | SqlError.SqlError>
}>()("@herald/core/Connections") {
  static readonly layer = Layer.effect(
    Connections,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const networks = yield* Networks
      const cipher = yield* Cipher
      const accounts = yield* Accounts

      const start = Effect.fn("Connections.start")(function*(input: {
        readonly workspaceId: string
        readonly platform: string
        readonly redirectUri: string
        readonly sandboxUsername?: string | undefined
        readonly returnTo?: string | undefined
      }) {
        if (input.returnTo !== undefined && !isReturnPath(input.returnTo)) {
          return yield* new InvalidReturnTo({ returnTo: input.returnTo })
        }
        const adapter = yield* networks.get(input.platform)
        const state = withReturnTo(Pkce.state(), input.returnTo)
        const verifier = adapter.oauth.pkce ? Pkce.verifier() : undefined
        const now = yield* Clock.currentTimeMillis
        const expiresAt = new Date(now + Duration.toMillis(stateLifetime))
        yield* sql`
          INSERT INTO oauth_states (state, workspace_id, platform, code_verifier, redirect_uri, sandbox_username, expires_at)
          VALUES (${state}, ${input.workspaceId}, ${input.platform},
            ${verifier === undefined ? null : cipher.seal(Redacted.make(verifier))}, ${input.redirectUri},
            ${input.sandboxUsername ?? null}, ${expiresAt})
        `
        const url = new URL(adapter.oauth.authorizeUrl({
          state,
          redirectUri: input.redirectUri,
          codeChallenge: verifier === undefined ? undefined : Pkce.challenge(verifier)
        }))
        if (input.sandboxUsername !== undefined) url.searchParams.set("sandbox_username", input.sandboxUsername)
        return { url: url.toString(), state, expiresAt: expiresAt.toISOString() }
      })

      const failed = (message: string) => new ConnectionFailed({ message })
      const fromNetwork = (error: PublishError.PublishError) =>
        failed(`The network refused the connection: ${error.reason.message}`)

      const complete = Effect.fn("Connections.complete")(function*(input: {
        readonly platform: string
        readonly state: string
        readonly code: string
      }) {
        const adapter = yield* networks.get(input.platform)
        // The state is single-use: taken and deleted in one statement.
        const [row] = yield* sql<StateRow>`
          DELETE FROM oauth_states WHERE state = ${input.state}
          RETURNING workspace_id, platform, code_verifier, redirect_uri, expires_at
        `
        if (row === undefined || row.platform !== input.platform) {
          return yield* failed("This connection link is not valid (unknown or already used state); start again")
        }
        const now = yield* Clock.currentTimeMillis
        if (row.expiresAt.getTime() <= now) return yield* failed("This connection link expired; start again")
        const verifier = row.codeVerifier === null
          ? undefined
          : Redacted.value(yield* Effect.mapError(cipher.open(row.codeVerifier), (error) => failed(error.message)))
        const tokens = yield* adapter.oauth.exchange({
          code: input.code,
          redirectUri: row.redirectUri,
          codeVerifier: verifier
        }).pipe(Effect.mapError(fromNetwork))
        const profile = yield* Effect.mapError(adapter.oauth.profile(tokens.accessToken), fromNetwork)
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
            network_account_id, access_token, refresh_token, token_expires_at, scopes, connected_at)
          VALUES (${id}, ${row.workspaceId}, ${input.platform}, ${profile.username}, ${profile.displayName},
            ${profile.avatarUrl}, 'connected', ${profile.networkAccountId}, ${cipher.seal(tokens.accessToken)},
            ${refreshToken}, ${expiresAt}, ${tokens.scopes.join(" ")}, now())
          ON CONFLICT (workspace_id, platform, network_account_id) DO UPDATE SET
            username = excluded.username, display_name = excluded.display_name, avatar_url = excluded.avatar_url,
            status = 'connected', status_reason = NULL, access_token = excluded.access_token,
            refresh_token = coalesce(excluded.refresh_token, accounts.refresh_token),
            token_expires_at = excluded.token_expires_at, scopes = excluded.scopes, updated_at = now()
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
            account: { networkAccountId: profile.networkAccountId, username: profile.username, accessToken: tokens.accessToken },
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

      return Connections.of({ start, complete, disconnect })
    })
  )
}
