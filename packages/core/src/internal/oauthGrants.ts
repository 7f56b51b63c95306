import { Effect, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { Ids as DomainIds, Workspace } from "@herald/domain"
import { GrantNotFound } from "../OAuthErrors.ts"
import { dieOnBadRow, Timestamp } from "./rows.ts"

// A workspace's grants as its members see and end them in the console: who approved which assistant, with
// what role. Apart from the authorization flow that makes grants and the tokens that act on them.

export interface Grant {
  readonly id: string
  readonly client: { readonly id: string; readonly name: string }
  readonly memberId: DomainIds.MemberId
  readonly email: string
  readonly role: Workspace.Role
  /** Its member let it publish without approval (decision 0048). */
  readonly publishesDirectly: boolean
  readonly createdAt: string
  readonly lastUsedAt: string | null
}

/** A live grant with its client's name and its member's address and role now. */
const GrantRow = Schema.Struct({
  id: Schema.String,
  clientId: Schema.String,
  clientName: Schema.String,
  memberId: DomainIds.MemberId,
  email: Schema.String,
  role: Workspace.Role,
  publishesDirectly: Schema.Boolean,
  createdAt: Timestamp,
  lastUsedAt: Schema.NullOr(Timestamp)
})

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const grantsOf = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: Schema.String, memberId: Schema.NullOr(Schema.String) }),
    Result: GrantRow,
    execute: ({ memberId, workspaceId }) =>
      sql`
      SELECT g.id, g.client_id, c.name AS client_name, g.member_id, m.email, m.role, g.publishes_directly, g.created_at,
        g.last_used_at
      FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id JOIN members m ON m.id = g.member_id
      WHERE g.workspace_id = ${workspaceId} AND g.revoked_at IS NULL
        ${memberId === null ? sql`` : sql`AND g.member_id = ${memberId}`}
      ORDER BY g.created_at DESC, g.id`
  })

  const grants = Effect.fn("OAuth.grants")(function*(workspaceId: string, memberId: string | null) {
    const rows = yield* dieOnBadRow(grantsOf({ workspaceId, memberId }))
    return rows.map((row): Grant => ({
      id: row.id,
      client: { id: row.clientId, name: row.clientName },
      memberId: row.memberId,
      email: row.email,
      role: row.role,
      publishesDirectly: row.publishesDirectly,
      createdAt: row.createdAt,
      lastUsedAt: row.lastUsedAt
    }))
  })

  const revokeGrant = Effect.fn("OAuth.revokeGrant")(function*(workspaceId: string, grantId: string, memberId: string | null) {
    const rows = yield* sql`
      UPDATE oauth_grants SET revoked_at = now()
      WHERE id = ${grantId} AND workspace_id = ${workspaceId} AND revoked_at IS NULL
        ${memberId === null ? sql`` : sql`AND member_id = ${memberId}`}
      RETURNING id`
    if (rows.length === 0) return yield* new GrantNotFound({ grantId })
  })

  return { grants, revokeGrant }
})
