import { Clock, Context, Duration, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Account, Ids as DomainIds } from "@herald/domain"
import { listenForEvictions } from "./internal/evictions.ts"
import { iso } from "./internal/rows.ts"

interface AccountRow {
  readonly id: string
  readonly platform: Account.Account["platform"]
  readonly username: string
  readonly displayName: string | null
  readonly avatarUrl: string | null
  readonly status: Account.AccountStatus
  readonly statusReason: string | null
  readonly connectedAt: Date | string
}

// A workspace's accounts are read on every account list and post check but change only when one is
// connected, refreshed or disconnected; so each process keeps them briefly, and `changed` evicts them in
// every process sharing the database.
const changedChannel = "herald_accounts_changed"
const cacheMillis = Duration.toMillis(Duration.seconds(30))

export class Accounts extends Context.Service<Accounts, {
  list(workspaceId: string): Effect.Effect<ReadonlyArray<Account.Account>, SqlError.SqlError>
  /** Call after committing any change to a workspace's accounts. */
  changed(workspaceId: string): Effect.Effect<void, SqlError.SqlError>
}>()("@herald/core/Accounts") {
  static readonly layer = Layer.effect(
    Accounts,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const pg = yield* PgClient.PgClient
      const cache = new Map<string, { readonly accounts: ReadonlyArray<Account.Account>; readonly expiresAt: number }>()

      const load = (workspaceId: string) =>
        sql<AccountRow>`
          SELECT id, platform, username, display_name, avatar_url, status, status_reason, connected_at
          FROM accounts WHERE workspace_id = ${workspaceId} AND status <> 'disconnected'
          ORDER BY created_at, id
        `.pipe(Effect.map((rows) =>
          rows.map((row) =>
            new Account.Account({
              id: DomainIds.AccountId.make(row.id),
              platform: row.platform,
              username: row.username,
              displayName: row.displayName,
              avatarUrl: row.avatarUrl,
              status: row.status,
              statusReason: row.statusReason,
              connectedAt: iso(row.connectedAt)
            })
          )
        ))

      const list = Effect.fnUntraced(function*(workspaceId: string) {
        const now = yield* Clock.currentTimeMillis
        const cached = cache.get(workspaceId)
        if (cached !== undefined && cached.expiresAt > now) return cached.accounts
        const accounts = yield* load(workspaceId)
        cache.set(workspaceId, { accounts, expiresAt: now + cacheMillis })
        return accounts
      })

      const changed = Effect.fn("Accounts.changed")(function*(workspaceId: string) {
        cache.delete(workspaceId)
        yield* pg.notify(changedChannel, workspaceId)
      })

      yield* listenForEvictions(pg, changedChannel, cache)

      return Accounts.of({ list, changed })
    })
  )
}
