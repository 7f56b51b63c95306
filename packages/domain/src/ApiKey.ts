import { Schema } from "effect"
import { ApiKeyId, MemberId, WorkspaceId } from "./Ids.ts"

/** Every Herald API key starts with this, so scanners and people can tell what it is. */
export const keyPrefix = "hrld_"

/** An API key as it can be shown after creation: never the key itself, only its ends. */
export class ApiKey extends Schema.Class<ApiKey>("ApiKey")({
  id: ApiKeyId,
  workspaceId: WorkspaceId,
  name: Schema.String,
  /** The member the key acts for, with that member's role; null for a workspace key, which may do anything. */
  memberId: Schema.NullOr(MemberId),
  prefix: Schema.String,
  lastFour: Schema.String,
  createdAt: Schema.String,
  lastUsedAt: Schema.NullOr(Schema.String),
  revokedAt: Schema.NullOr(Schema.String)
}) {}

/** The answer to creating a key: the only time the key is shown. */
export class CreatedApiKey extends Schema.Class<CreatedApiKey>("CreatedApiKey")({
  ...ApiKey.fields,
  key: Schema.String
}) {}
