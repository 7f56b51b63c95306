import { Clock, Context, Duration, Effect, Layer, Option, Schedule } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { Adapter, type PublishError } from "@herald/adapter-kit"
import { Accounts } from "./Accounts.ts"
import { Cipher } from "./Cipher.ts"
import * as Events from "./Events.ts"
import { Networks } from "./Networks.ts"

/** What refreshing one account came to. */
export type Outcome =
  | { readonly _tag: "Refreshed" }
  | { readonly _tag: "NeedsReconnect"; readonly reason: string }
  | { readonly _tag: "Retry"; readonly reason: string }
  | { readonly _tag: "Skipped" }

// Tokens are renewed this long before they expire, and checked this often.
const ahead = Duration.minutes(10)
const every = Duration.minutes(1)
const claimFor = Duration.minutes(1)

interface Due {
  readonly id: string
  readonly workspaceId: string
  readonly platform: string
  readonly refreshToken: Uint8Array
  /** The account's server, on a network of many servers; null on one host. */
  readonly server: string | null
  /** How it signed in (`oauth` or `credentials`): its tokens are renewed the same way. */
  readonly signIn: string
}

/**
 * Renews access tokens before they expire. A refresh the network refuses for good (revoked grant, refused
 * refresh token) marks the account `needs_reconnect` with the network's reason; a passing fault is tried
 * again on the next round. A process claims an account before refreshing it, so a rotating refresh token
 * is never spent twice by two processes.
 */
export class TokenRefresh extends Context.Service<TokenRefresh, {
  refresh(accountId: string): Effect.Effect<Outcome, SqlError.SqlError>
  /** The network refused the account's grant (seen while publishing): `needs_reconnect`, with its event. */
  needsReconnect(accountId: string, reason: string): Effect.Effect<void, SqlError.SqlError>
  readonly refreshDue: Effect.Effect<ReadonlyArray<Outcome>, SqlError.SqlError>
}>()("@herald/core/TokenRefresh") {
  static readonly layerNoDeps = Layer.effect(
    TokenRefresh,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const cipher = yield* Cipher
      const networks = yield* Networks
      const accounts = yield* Accounts

      const markNeedsReconnect = (due: Pick<Due, "id" | "workspaceId" | "platform">, reason: string) =>
        Effect.andThen(
          sql.withTransaction(Effect.gen(function*() {
            // Only a connected account moves, so two targets failing at once announce it once.
            const rows = yield* sql<{ readonly username: string }>`
              UPDATE accounts SET status = 'needs_reconnect', status_reason = ${reason}, refresh_claimed_until = NULL,
                updated_at = now()
              WHERE id = ${due.id} AND status = 'connected'
              RETURNING username
            `
            if (rows.length === 0) return
            yield* Events.record(sql, due.workspaceId, "account.needs_reconnect", {
              accountId: due.id,
              platform: due.platform,
              username: rows[0]?.username ?? "",
              note: reason
            })
          })),
          accounts.changed(due.workspaceId)
        )

      const refreshOne = (due: Due) =>
        Effect.gen(function*() {
          const adapter = yield* Effect.option(networks.get(due.platform))
          const refresh = Option.isNone(adapter)
            ? undefined
            : Adapter.refresher(adapter.value, due.signIn === "credentials" ? "credentials" : "oauth")
          if (Option.isNone(adapter) || refresh === undefined) return { _tag: "Skipped" } as const
          const refreshToken = yield* Effect.option(cipher.open(due.refreshToken))
          if (Option.isNone(refreshToken)) {
            yield* markNeedsReconnect(due, "The stored refresh token cannot be read; connect the account again")
            return { _tag: "NeedsReconnect", reason: "unreadable refresh token" } as const
          }
          // On a network of many servers, the account's server and Herald's app there go with the refresh.
          const [app] = due.server === null ? [] : yield* sql<{ readonly clientId: string; readonly clientSecret: Uint8Array }>`
            SELECT client_id, client_secret FROM network_apps WHERE network = ${due.platform} AND server = ${due.server}`
          const clientSecret = app === undefined ? Option.none() : yield* Effect.option(cipher.open(app.clientSecret))
          const context: Adapter.ServerContext = {
            server: due.server,
            client: app === undefined || Option.isNone(clientSecret) ? undefined : { clientId: app.clientId, clientSecret: clientSecret.value }
          }
          const result = yield* Effect.result(refresh(refreshToken.value, context))
          if (result._tag === "Failure") {
            const error: PublishError.PublishError = result.failure
            if (error.retryable || error.reason._tag === "OutcomeUnknown") {
              yield* sql`UPDATE accounts SET refresh_claimed_until = NULL WHERE id = ${due.id}`
              return { _tag: "Retry", reason: error.reason.message } as const
            }
            yield* markNeedsReconnect(due, `${due.platform}: ${error.reason.message}`)
            return { _tag: "NeedsReconnect", reason: error.reason.message } as const
          }
          const tokens = result.success
          yield* sql`
            UPDATE accounts SET access_token = ${cipher.seal(tokens.accessToken)},
              refresh_token = ${Option.getOrNull(Option.map(tokens.refreshToken, (token) => cipher.seal(token))) ?? due.refreshToken},
              token_expires_at = ${Option.getOrNull(Option.map(tokens.expiresAt, (millis) => new Date(millis)))},
              refresh_claimed_until = NULL, updated_at = now()
            WHERE id = ${due.id}
          `
          return { _tag: "Refreshed" } as const
        })

      const claim = (where: "one" | "due", accountId: string) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const until = new Date(now + Duration.toMillis(claimFor))
          const soon = new Date(now + Duration.toMillis(ahead))
          return sql<Due>`
            UPDATE accounts SET refresh_claimed_until = ${until}
            WHERE status = 'connected' AND refresh_token IS NOT NULL
              AND (refresh_claimed_until IS NULL OR refresh_claimed_until < ${new Date(now)})
              AND ${where === "one" ? sql`id = ${accountId}` : sql`token_expires_at < ${soon}`}
            RETURNING id, workspace_id, platform, refresh_token, server, sign_in
          `
        })

      const refresh = Effect.fn("TokenRefresh.refresh")(function*(accountId: string) {
        const [due] = yield* claim("one", accountId)
        return due === undefined ? { _tag: "Skipped" } as const : yield* refreshOne(due)
      })

      const refreshDue = Effect.flatMap(claim("due", ""), (due) => Effect.forEach(due, refreshOne)).pipe(
        Effect.withSpan("TokenRefresh.refreshDue")
      )

      const needsReconnect = Effect.fn("TokenRefresh.needsReconnect")(function*(accountId: string, reason: string) {
        const [account] = yield* sql<{ readonly id: string; readonly workspaceId: string; readonly platform: string }>`
          SELECT id, workspace_id, platform FROM accounts WHERE id = ${accountId}`
        if (account !== undefined) yield* markNeedsReconnect(account, reason)
      })

      return TokenRefresh.of({ refresh, refreshDue, needsReconnect })
    })
  )

  /** The service plus the round every minute that renews what expires soon. */
  static readonly layer = Layer.effectDiscard(Effect.gen(function*() {
    const service = yield* TokenRefresh
    yield* service.refreshDue.pipe(
      Effect.catchCause((cause) => Effect.logWarning("Token refresh round failed", cause)),
      Effect.repeat(Schedule.spaced(every)),
      Effect.forkScoped
    )
  })).pipe(Layer.provideMerge(TokenRefresh.layerNoDeps))
}
