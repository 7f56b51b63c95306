import { Effect, Exit, Option, Request, RequestResolver } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import { type Post, PostStatus } from "@herald/domain"
import * as Events from "../Events.ts"
import type * as PostShape from "../PostShape.ts"
import { hydrate, postColumns, type PostRow } from "./postRows.ts"

/**
 * Ending a post once every target has: its final status and its event. A read and one statement, not a
 * transaction of four: the post is read (its targets have all ended, so nothing it shows can change any
 * more), the event is built from it, and one statement moves the post and inserts the event only if it
 * moved, so the two commit together or not at all, and of two processes ending the same post only one
 * announces it. Posts ending in the same turn of the scheduler share both statements (see targetWrites.ts).
 */

type EndingRow = PostRow & { readonly workspaceId: string; readonly note: string | null; readonly currentVersion: number }

interface Read extends Request.Request<Option.Option<EndingRow>, SqlError.SqlError> {
  readonly postId: string
}
const Read = Request.of<Read>()

interface Write extends Request.Request<boolean, SqlError.SqlError> {
  readonly postId: string
  readonly version: number
  readonly outcome: PostStatus.Outcome
  readonly event: ReturnType<typeof Events.row>
}
const Write = Request.of<Write>()

export const make = (sql: SqlClient.SqlClient, shape: PostShape.PostShape, baseUrl: string) => {
  const rows = sql.join(", ", false)

  const reads = RequestResolver.make<Read>((entries) =>
    Effect.map(
      sql<EndingRow>`
        SELECT workspace_id, publish_note AS note, version AS current_version, ${sql.literal(postColumns)}
        FROM posts WHERE ${sql.in("id", entries.map(({ request }) => request.postId))}`,
      (found) => {
        const byId = new Map(found.map((row) => [row.id, row]))
        for (const { completeUnsafe, request } of entries) completeUnsafe(Exit.succeed(Option.fromUndefinedOr(byId.get(request.postId))))
      }
    )
  )

  const writes = RequestResolver.make<Write>((entries) =>
    Effect.map(
      sql<{ readonly postId: string }>`
        WITH v (post_id, version, status, event_id, workspace_id, event, data) AS (VALUES ${
        rows(entries.map(({ request: { event, outcome, postId, version } }) =>
          sql`(${postId}, ${version}::int, ${outcome}, ${event.id}::uuid, ${event.workspaceId}, ${event.event}, ${event.data}::jsonb)`
        ))
      }), ended AS (
          UPDATE posts SET status = v.status, updated_at = now()
          FROM v
          WHERE posts.id = v.post_id AND posts.version = v.version AND posts.status = ${PostStatus.publishing}
            AND NOT EXISTS (SELECT 1 FROM post_targets t WHERE t.post_id = v.post_id AND t.status = 'pending')
          RETURNING posts.id
        ), announced AS (
          INSERT INTO events (id, workspace_id, event, data)
          SELECT v.event_id, v.workspace_id, v.event, v.data FROM v JOIN ended ON ended.id = v.post_id
          RETURNING id
        )
        SELECT v.post_id FROM v JOIN announced ON announced.id = v.event_id`,
      (ended) => {
        const done = new Set(ended.map((row) => row.postId))
        for (const { completeUnsafe, request } of entries) completeUnsafe(Exit.succeed(done.has(request.postId)))
      }
    )
  )

  /** Ends the post at `version` if every target has ended; its final status, or `None` if it was not ended here. */
  return (postId: string, version: number) =>
    Effect.gen(function*() {
      const found = yield* Effect.request(Read({ postId }), reads)
      if (Option.isNone(found)) return Option.none<Post.PostStatus>()
      const row = found.value
      if (row.status !== PostStatus.publishing || row.currentVersion !== version) return Option.none<Post.PostStatus>()
      const outcome = PostStatus.onPublishOutcome(row.targets.map((target) => target.status))
      if (outcome === undefined) return Option.none<Post.PostStatus>()
      const [post] = hydrate([{ ...row, status: outcome }], baseUrl)
      const event = Events.row(row.workspaceId, PostStatus.outcomeEvent(outcome), {
        postId,
        post: shape.show(post!),
        ...(row.note === null ? {} : { note: row.note })
      })
      const ended = yield* Effect.request(Write({ postId, version, outcome, event }), writes)
      return ended ? Option.some<Post.PostStatus>(outcome) : Option.none<Post.PostStatus>()
    })
}
