import { Schema } from "effect"
import { AccountId } from "./Ids.ts"

export const AccountStatus = Schema.Literals(["connected", "needs_reconnect", "disconnected"])
export type AccountStatus = typeof AccountStatus.Type

/** A connected account as `GET /api/v1/accounts` shows it (product.md, "Accounts"). */
export class Account extends Schema.Class<Account>("Account")({
  id: AccountId,
  // A network key: that of an installed adapter (`GET /api/v1/networks`).
  platform: Schema.String,
  username: Schema.String,
  displayName: Schema.NullOr(Schema.String),
  avatarUrl: Schema.NullOr(Schema.String),
  status: AccountStatus,
  /** Why the account needs reconnecting (the network's answer); null while it is connected. */
  statusReason: Schema.NullOr(Schema.String),
  connectedAt: Schema.String
}) {}
