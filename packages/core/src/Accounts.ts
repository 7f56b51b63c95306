import { Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { Account, Ids as DomainIds } from "@herald/domain"
import { iso } from "./internal/rows.ts"

interface AccountRow {
  readonly id: string
  readonly platform: Account.Account["platform"]
  readonly username: string
  readonly displayName: string | null
  readonly avatarUrl: string | null
  readonly status: Account.AccountStatus
  readonly connectedAt: Date | string
}

export class Accounts extends Context.Service<Accounts, {
  list(workspaceId: string): Effect.Effect<ReadonlyArray<Account.Account>, SqlError.SqlError>
}>()("@herald/core/Accounts") {
  static readonly layer = Layer.effect(
    Accounts,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const list = Effect.fn("Accounts.list")(function*(workspaceId: string) {
        const rows = yield* sql<AccountRow>`
          SELECT id, platform, username, display_name, avatar_url, status, connected_at
          FROM accounts WHERE workspace_id = ${workspaceId} AND status <> 'disconnected'
          ORDER BY created_at, id
        `
        return rows.map((row) =>
          new Account.Account({
            id: DomainIds.AccountId.make(row.id),
            platform: row.platform,
            username: row.username,
            displayName: row.displayName,
            avatarUrl: row.avatarUrl,
            status: row.status,
            connectedAt: iso(row.connectedAt)
          })
        )
      })

      return Accounts.of({ list })
    })
  )
}
