import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Ids as DomainIds, type Workspace } from "@herald/domain"
import { GrantNotFound } from "../OAuthErrors.ts"

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

export const make = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient

  const grants = Effect.fn("OAuth.grants")(function*(workspaceId: string, memberId: string | null) {
    const rows = yield* sql<{
      readonly id: string
      readonly clientId: string
      readonly clientName: string
      readonly memberId: string
      readonly email: string
      readonly role: Workspace.Role
      readonly publishesDirectly: boolean
      readonly createdAt: Date
      readonly lastUsedAt: Date | null
    }>`
      SELECT g.id, g.client_id, c.name AS client_name, g.member_id, m.email, m.role, g.publishes_directly, g.created_at,
        g.last_used_at
      FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id JOIN members m ON m.id = g.member_id
      WHERE g.workspace_id = ${workspaceId} AND g.revoked_at IS NULL
        ${memberId === null ? sql`` : sql`AND g.member_id = ${memberId}`}
      ORDER BY g.created_at DESC, g.id`
    return rows.map((row): Grant => ({
      id: row.id,
      client: { id: row.clientId, name: row.clientName },
      memberId: DomainIds.MemberId.make(row.memberId),
      email: row.email,
      role: row.role,
      publishesDirectly: row.publishesDirectly,
      createdAt: row.createdAt.toISOString(),
      lastUsedAt: row.lastUsedAt?.toISOString() ?? null
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
