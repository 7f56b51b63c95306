import { Clock, Context, Duration, Effect, Layer, Option, Schedule, Schema } from "effect"
import { SqlClient, type SqlError, SqlSchema } from "effect/sql"
import { Adapter, type PublishError } from "@herald/adapter-kit"
import { Accounts } from "./Accounts.ts"
import { Cipher } from "./Cipher.ts"
import * as Events from "./Events.ts"
import { networkApp } from "./internal/connectionRows.ts"
import { dieOnBadRow } from "./internal/rows.ts"
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

/** An account claimed for a refresh, with its refresh token sealed. */
const Due = Schema.Struct({
  id: Schema.String,
  workspaceId: Schema.String,
  platform: Schema.String,
  refreshToken: Schema.Uint8Array,
  /** The account's server, on a network of many servers; null on one host. */
  server: Schema.NullOr(Schema.String),
  /** How it signed in (`oauth` or `credentials`): its tokens are renewed the same way. */
  signIn: Schema.String
})
type Due = typeof Due.Type

/** The account to claim: `one` by its id, or every one `due` (expiring before `soon`). */
const Claim = Schema.Struct({
  where: Schema.Literals(["one", "due"]),
  accountId: Schema.String,
  now: Schema.Date,
  until: Schema.Date,
  soon: Schema.Date
})

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
      const appOf = networkApp(sql)
      const movedToReconnect = SqlSchema.findOneOption({
        Request: Schema.Struct({ id: Schema.String, reason: Schema.String }),
        Result: Schema.Struct({ username: Schema.String }),
        execute: ({ id, reason }) =>
          sql`
              UPDATE accounts SET status = 'needs_reconnect', status_reason = ${reason}, refresh_claimed_until = NULL,
                updated_at = now()
              WHERE id = ${id} AND status = 'connected'
              RETURNING username
            `
      })
      const claimed = SqlSchema.findAll({
        Request: Claim,
        Result: Due,
        execute: ({ accountId, now, soon, until, where }) =>
          sql`
            UPDATE accounts SET refresh_claimed_until = ${until}
            WHERE status = 'connected' AND refresh_token IS NOT NULL
              AND (refresh_claimed_until IS NULL OR refresh_claimed_until < ${now})
              AND ${where === "one" ? sql`id = ${accountId}` : sql`token_expires_at < ${soon}`}
            RETURNING id, workspace_id, platform, refresh_token, server, sign_in
          `
      })
      const accountOf = SqlSchema.findOneOption({
        Request: Schema.String,
        Result: Due.mapFields(({ id, platform, workspaceId }) => ({ id, workspaceId, platform })),
        execute: (accountId) => sql`
          SELECT id, workspace_id, platform FROM accounts WHERE id = ${accountId}`
      })

      const markNeedsReconnect = (due: Pick<Due, "id" | "workspaceId" | "platform">, reason: string) =>
        Effect.andThen(
          sql.withTransaction(Effect.gen(function*() {
            // Only a connected account moves, so two targets failing at once announce it once.
            const moved = yield* dieOnBadRow(movedToReconnect({ id: due.id, reason }))
            if (Option.isNone(moved)) return
            yield* Events.record(sql, due.workspaceId, "account.needs_reconnect", {
              accountId: due.id,
              platform: due.platform,
              username: moved.value.username,
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
          const app = due.server === null ? Option.none() : yield* dieOnBadRow(appOf({ network: due.platform, server: due.server }))
          const clientSecret = Option.isNone(app) ? Option.none() : yield* Effect.option(cipher.open(app.value.clientSecret))
          const context: Adapter.ServerContext = {
            server: due.server,
            client: Option.isNone(app) || Option.isNone(clientSecret)
              ? undefined
              : { clientId: app.value.clientId, clientSecret: clientSecret.value }
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
        Effect.flatMap(Clock.currentTimeMillis, (now) =>
          dieOnBadRow(claimed({
            where,
            accountId,
            now: new Date(now),
            until: new Date(now + Duration.toMillis(claimFor)),
            soon: new Date(now + Duration.toMillis(ahead))
          })))

      const refresh = Effect.fn("TokenRefresh.refresh")(function*(accountId: string) {
        const [due] = yield* claim("one", accountId)
        return due === undefined ? { _tag: "Skipped" } as const : yield* refreshOne(due)
      })

      const refreshDue = Effect.flatMap(claim("due", ""), (due) => Effect.forEach(due, refreshOne)).pipe(
        Effect.withSpan("TokenRefresh.refreshDue")
      )

      const needsReconnect = Effect.fn("TokenRefresh.needsReconnect")(function*(accountId: string, reason: string) {
        const account = yield* dieOnBadRow(accountOf(accountId))
        if (Option.isSome(account)) yield* markNeedsReconnect(account.value, reason)
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
