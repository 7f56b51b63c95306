import { Effect, Option, Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import type { Adapter } from "@herald/adapter-kit"
import { Account, Ids as DomainIds } from "@herald/domain"
import type { Accounts } from "../Accounts.ts"
import type { Cipher } from "../Cipher.ts"
import * as Events from "../Events.ts"
import * as Ids from "../Ids.ts"
import { Timestamp } from "./rows.ts"

// Storing a connected account, where both connect methods (the consent page's callback and signing in with
// fields) end: the row with its tokens sealed, its event, and the inbox's starting point.

/** What an account is stored with: its profile, its tokens sealed, and how it signed in. */
const NewAccount = Schema.Struct({
  id: Schema.String,
  workspaceId: Schema.String,
  platform: Schema.String,
  username: Schema.String,
  displayName: Schema.NullOr(Schema.String),
  avatarUrl: Schema.NullOr(Schema.String),
  networkAccountId: Schema.String,
  accessToken: Schema.Uint8Array,
  refreshToken: Schema.NullOr(Schema.Uint8Array),
  expiresAt: Schema.NullOr(Schema.Date),
  scopes: Schema.String,
  server: Schema.NullOr(Schema.String),
  signIn: Schema.Literals(["oauth", "credentials"])
})

/** The account as stored, decoded into the domain's `Account` (connected, so with no reason). */
const StoredRow = Schema.Struct({
  id: DomainIds.AccountId,
  platform: Schema.String,
  username: Schema.String,
  displayName: Schema.NullOr(Schema.String),
  avatarUrl: Schema.NullOr(Schema.String),
  status: Account.AccountStatus,
  connectedAt: Timestamp
})

/** Stores a connected account (a new one, or one connected again, keeping its id) and announces it. */
export const makeStore = (sql: SqlClient.SqlClient, cipher: Cipher["Service"], accounts: Accounts["Service"]) => {
  const upserted = SqlSchema.findOne({
    Request: NewAccount,
    Result: StoredRow,
    execute: (input) =>
      sql`
      INSERT INTO accounts (id, workspace_id, platform, username, display_name, avatar_url, status,
        network_account_id, access_token, refresh_token, token_expires_at, scopes, server, sign_in, connected_at)
      VALUES (${input.id}, ${input.workspaceId}, ${input.platform}, ${input.username}, ${input.displayName},
        ${input.avatarUrl}, 'connected', ${input.networkAccountId}, ${input.accessToken},
        ${input.refreshToken}, ${input.expiresAt}, ${input.scopes}, ${input.server}, ${input.signIn}, now())
      ON CONFLICT (workspace_id, platform, network_account_id) DO UPDATE SET
        username = excluded.username, display_name = excluded.display_name, avatar_url = excluded.avatar_url,
        status = 'connected', status_reason = NULL, access_token = excluded.access_token,
        refresh_token = coalesce(excluded.refresh_token, accounts.refresh_token),
        token_expires_at = excluded.token_expires_at, scopes = excluded.scopes, server = excluded.server,
        sign_in = excluded.sign_in, updated_at = now()
      RETURNING id, platform, username, display_name, avatar_url, status, connected_at
    `
  })
  return Effect.fn("Connections.store")(function*(input: {
    readonly adapter: Adapter.Adapter
    readonly workspaceId: string
    readonly platform: string
    readonly signedIn: Adapter.SignedIn
    readonly signIn: "oauth" | "credentials"
  }) {
    const { adapter, signedIn: { profile, server, tokens } } = input
    const id = yield* Ids.make(DomainIds.prefixes.account)
    const refreshToken = Option.getOrNull(Option.map(tokens.refreshToken, (token) => cipher.seal(token)))
    const expiresAt = Option.getOrNull(Option.map(tokens.expiresAt, (millis) => new Date(millis)))
    // Reconnecting an account that exists keeps its id, and its refresh token when the network sent none.
    const stored = yield* sql.withTransaction(Effect.gen(function*() {
      const row = yield* Effect.orDie(upserted({
        id,
        workspaceId: input.workspaceId,
        platform: input.platform,
        username: profile.username,
        displayName: profile.displayName,
        avatarUrl: profile.avatarUrl,
        networkAccountId: profile.networkAccountId,
        accessToken: cipher.seal(tokens.accessToken),
        refreshToken,
        expiresAt,
        scopes: tokens.scopes.join(" "),
        server,
        signIn: input.signIn
      }))
      // Announced with the change (the outbox), so a receiver hears of every connection that committed.
      yield* Events.record(sql, input.workspaceId, "account.connected", {
        accountId: row.id,
        platform: row.platform,
        username: row.username
      })
      return row
    }))
    yield* accounts.changed(input.workspaceId)
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
            INSERT INTO inbox_cursors (account_id, cursor) VALUES (${stored.id}, ${page.cursor})
            ON CONFLICT (account_id) DO UPDATE SET cursor = coalesce(inbox_cursors.cursor, excluded.cursor)`
        ),
        Effect.catchCause((cause) => Effect.logWarning("The inbox's starting point could not be read; the first round sets it", cause))
      )
    }
    return new Account.Account({ ...stored, statusReason: null })
  })
}
