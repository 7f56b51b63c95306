import { Clock, Context, Deferred, Duration, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError, SqlSchema } from "effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Account, Ids as DomainIds } from "@herald/domain"
import * as DieOnSql from "./internal/dieOnSql.ts"
import { listenForEvictions } from "./internal/evictions.ts"
import { dieOnBadRow, Timestamp } from "./internal/rows.ts"

/** An `accounts` row as the list reads it, decoded rather than asserted (a row unlike it dies). */
const AccountRow = Schema.Struct({
  id: DomainIds.AccountId,
  platform: Schema.String,
  username: Schema.String,
  displayName: Schema.NullOr(Schema.String),
  avatarUrl: Schema.NullOr(Schema.String),
  status: Account.AccountStatus,
  statusReason: Schema.NullOr(Schema.String),
  connectedAt: Timestamp
})

// A workspace's accounts are read on every account list and post check but change only when one is
// connected, refreshed or disconnected; so each process keeps them briefly, and `changed` evicts them in
// every process sharing the database.
const changedChannel = "herald_accounts_changed"
const cacheMillis = Duration.toMillis(Duration.seconds(30))

export class Accounts extends Context.Service<Accounts, {
  list(workspaceId: string): Effect.Effect<ReadonlyArray<Account.Account>>
  /** Call after committing any change to a workspace's accounts. */
  changed(workspaceId: string): Effect.Effect<void, SqlError.SqlError>
}>()("@herald/core/Accounts") {
  static readonly layer = Layer.effect(
    Accounts,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const pg = yield* PgClient.PgClient
      const scope = yield* Effect.scope
      const cache = new Map<string, { readonly accounts: ReadonlyArray<Account.Account>; readonly expiresAt: number }>()
      // Loads under way, by workspace: requests that race with a cold cache (a client opening many connections
      // at once) wait for the one load instead of each reading the accounts.
      const loads = new Map<string, Deferred.Deferred<ReadonlyArray<Account.Account>, SqlError.SqlError>>()

      const accountsOf = SqlSchema.findAll({
        Request: Schema.String,
        Result: AccountRow,
        execute: (workspaceId) =>
          sql`
          SELECT id, platform, username, display_name, avatar_url, status, status_reason, connected_at
          FROM accounts WHERE workspace_id = ${workspaceId} AND status <> 'disconnected'
          ORDER BY created_at, id
        `
      })

      const load = (workspaceId: string) =>
        dieOnBadRow(accountsOf(workspaceId)).pipe(Effect.map((rows) => rows.map((row) => new Account.Account(row))))

      /**
       * The one load of a workspace's accounts, shared by every request asking meanwhile. It runs in a fiber of
       * its own, so a request given up by its client does not fail the others waiting for it. A change while
       * it runs takes it out of `loads`: its answer then goes to those already waiting but is not cached.
       */
      const loadOnce = (workspaceId: string, now: number) => {
        const pending = loads.get(workspaceId)
        if (pending !== undefined) return Deferred.await(pending)
        const done = Deferred.makeUnsafe<ReadonlyArray<Account.Account>, SqlError.SqlError>()
        loads.set(workspaceId, done)
        const loaded = Effect.onExit(load(workspaceId), (exit) =>
          Effect.sync(() => {
            if (loads.get(workspaceId) === done) {
              loads.delete(workspaceId)
              if (exit._tag === "Success") cache.set(workspaceId, { accounts: exit.value, expiresAt: now + cacheMillis })
            }
            Deferred.doneUnsafe(done, exit)
          }))
        return Effect.andThen(Effect.forkIn(loaded, scope, { startImmediately: true }), Deferred.await(done))
      }

      // Runs on every account list: the cached path is plain code with no generator and no query.
      const list = (workspaceId: string): Effect.Effect<ReadonlyArray<Account.Account>, SqlError.SqlError> =>
        Effect.withFiber((fiber) => {
          const now = fiber.getRef(Clock.Clock).currentTimeMillisUnsafe()
          const cached = cache.get(workspaceId)
          return cached !== undefined && cached.expiresAt > now ? Effect.succeed(cached.accounts) : loadOnce(workspaceId, now)
        })

      /** Forgets a workspace's accounts, and any load of them under way, in this process. */
      const forget = {
        delete: (workspaceId: string) => {
          cache.delete(workspaceId)
          loads.delete(workspaceId)
        },
        clear: () => {
          cache.clear()
          loads.clear()
        }
      }

      const changed = Effect.fn("Accounts.changed")(function*(workspaceId: string) {
        forget.delete(workspaceId)
        yield* pg.notify(changedChannel, workspaceId)
      })

      yield* listenForEvictions(pg, changedChannel, forget)

      // `changed` keeps its SqlError: TokenRefresh, under the publisher, retries until the database answers.
      return Accounts.of({ list: (workspaceId) => DieOnSql.effect(list(workspaceId)), changed })
    })
  )
}
