import type { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import foundation from "./0001_foundation.ts"
import connectedAccounts from "./0002_connected_accounts.ts"

// Every migration, keyed `<id>_<name>`; both backends run this same set in id order.
export const migrations: Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>> = {
  "0001_foundation": foundation,
  "0002_connected_accounts": connectedAccounts
}
