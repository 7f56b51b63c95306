import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { iso } from "./rows.ts"

/** One event of a post, as a webhook delivery's body carries it. */
export interface PostEvent {
  readonly id: string
  readonly event: string
  readonly createdAt: string
  readonly data: Readonly<Record<string, unknown>>
}

/**
 * A post's events from the outbox, in the order they were written (`sequence`); undefined when the
 * workspace has no such post. Only `post.*` events: a comment on the post is the inbox's.
 */
export const makeEvents = (sql: SqlClient.SqlClient) =>
  Effect.fnUntraced(function*(workspaceId: string, postId: string) {
    const found = yield* sql`SELECT 1 FROM posts WHERE id = ${postId} AND workspace_id = ${workspaceId}`
    if (found.length === 0) return undefined
    const rows = yield* sql<{ readonly id: string; readonly event: string; readonly createdAt: Date; readonly data: unknown }>`
      SELECT id, event, created_at, data FROM events
      WHERE data->>'postId' = ${postId} AND workspace_id = ${workspaceId} AND event LIKE 'post.%'
      ORDER BY sequence`
    return rows.map((row): PostEvent => ({
      id: row.id,
      event: row.event,
      createdAt: iso(row.createdAt),
      // Both drivers hand JSONB over parsed, as the webhook sender sends it.
      data: row.data as Record<string, unknown>
    }))
  })
