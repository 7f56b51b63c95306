import { Effect, Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import { Post, PostStatus } from "@herald/domain"
import * as Events from "../Events.ts"
import type * as PostShape from "../PostShape.ts"
import type { Scheduler } from "../Scheduler.ts"
import { hydrate, postColumns, type PostRow } from "./postRows.ts"
import { dieOnBadRow, Timestamp } from "./rows.ts"

/** A post as the queue's writers see it once locked: its status, whether it is queued, its time and accounts. */
export interface Locked {
  readonly id: string
  readonly status: Post.PostStatus
  readonly queued: boolean
  readonly at: Date | null
  readonly accountIds: ReadonlyArray<string>
}

/** A post the queue moved: where it was and where it is. */
export interface Move {
  readonly postId: string
  readonly from: string
  readonly to: string
}

/** A post moved inside the transaction, to hand to the engine once it commits. */
export interface Rescheduled {
  readonly post: Post.Post
  readonly version: number
}

/** The statuses a queued post can be moved in: not yet going out. */
const movable = [PostStatus.scheduled, PostStatus.awaiting_approval]

/** A post's row as the queue locks it (`lockedColumns`), before its accounts are read. */
const LockedRow = Schema.Struct({
  id: Schema.String,
  status: Post.PostStatus,
  queued: Schema.Boolean,
  at: Schema.NullOr(Timestamp)
})

const lockedColumns = "id, status, queued, scheduled_at AS at"

/** A post's account (a `post_targets` row), or the account whose seat a post holds (a `queue_seats` row). */
const AccountOfPost = Schema.Struct({ postId: Schema.String, accountId: Schema.String })

/** Whether a locked post is in the queue and can still move: queued, not going out, its time to come. */
export const inQueue = (post: Locked, now: Date) =>
  post.queued && movable.includes(post.status) && post.at !== null && post.at.getTime() > now.getTime()

/** The sorted account ids, as one key for the posts that go to the same accounts. */
export const accountsKey = (post: Locked) => [...post.accountIds].sort().join(" ")

export const make = (sql: SqlClient.SqlClient, shape: PostShape.PostShape, baseUrl: string) => {
  const targetsOf = SqlSchema.findAll({
    Request: Schema.Array(Schema.String),
    Result: AccountOfPost,
    execute: (postIds) => sql`SELECT post_id, account_id FROM post_targets WHERE ${sql.in("post_id", postIds)} ORDER BY position`
  })
  const postsLocked = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: Schema.String, postIds: Schema.Array(Schema.String) }),
    Result: LockedRow,
    execute: ({ postIds, workspaceId }) => sql`
        SELECT ${sql.literal(lockedColumns)} FROM posts
        WHERE workspace_id = ${workspaceId} AND ${sql.in("id", postIds)} ORDER BY id FOR UPDATE`
  })
  const queueLocked = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: Schema.String, accountId: Schema.UndefinedOr(Schema.String), now: Schema.Date }),
    Result: LockedRow,
    execute: ({ accountId, now, workspaceId }) => sql`
          SELECT ${sql.literal(lockedColumns)} FROM posts
          WHERE workspace_id = ${workspaceId} AND queued AND ${sql.in("status", movable)} AND scheduled_at > ${now}
          ${accountId === undefined ? sql`` : sql`AND id IN (SELECT post_id FROM post_targets WHERE account_id = ${accountId})`}
          ORDER BY id FOR UPDATE`
  })
  const holderOf = SqlSchema.findOneOption({
    Request: Schema.Struct({ accountIds: Schema.Array(Schema.String), at: Schema.Date, except: Schema.Array(Schema.String) }),
    Result: AccountOfPost,
    execute: ({ accountIds, at, except }) => sql`
        SELECT post_id, account_id FROM queue_seats
        WHERE ${sql.in("account_id", accountIds)} AND slot_at = ${at} AND post_id NOT IN ${sql.in(except)}
        ORDER BY post_id LIMIT 1`
  })
  const rescheduled = SqlSchema.findOne({
    Request: Schema.Struct({ postId: Schema.String, at: Schema.Date }),
    Result: Schema.Struct({ version: Schema.Number }),
    execute: ({ at, postId }) => sql`
        UPDATE posts SET scheduled_at = ${at}, sort_at = ${at}, version = version + 1, updated_at = now()
        WHERE id = ${postId} RETURNING version`
  })

  const withAccounts = (rows: ReadonlyArray<typeof LockedRow.Type>) =>
    Effect.gen(function*() {
      if (rows.length === 0) return []
      const targets = yield* dieOnBadRow(targetsOf(rows.map((row) => row.id)))
      return rows.map((row): Locked => ({
        ...row,
        at: row.at === null ? null : new Date(row.at),
        accountIds: targets.filter((target) => target.postId === row.id).map((target) => target.accountId)
      }))
    })

  /**
   * Locks these posts of the workspace (`FOR UPDATE`, by id: the lock order every writer of existing posts
   * keeps, before the accounts) and answers those that exist.
   */
  const lockPosts = (workspaceId: string, postIds: ReadonlyArray<string>) =>
    Effect.flatMap(dieOnBadRow(postsLocked({ workspaceId, postIds })), withAccounts)

  /**
   * Locks the workspace's queued posts still to come (of one account's queue, when given) and answers them
   * in queue order: by time, then id.
   */
  const lockQueue = (workspaceId: string, accountId: string | undefined, now: Date) =>
    Effect.map(
      Effect.flatMap(dieOnBadRow(queueLocked({ workspaceId, accountId, now })), withAccounts),
      (posts) => [...posts].sort((left, right) => left.at!.getTime() - right.at!.getTime() || (left.id < right.id ? -1 : 1))
    )

  /** The post holding a seat of one of the accounts at `at`, other than the posts in `except`. */
  const holder = (accountIds: ReadonlyArray<string>, at: Date, except: ReadonlyArray<string>) =>
    dieOnBadRow(holderOf({ accountIds, at, except }))

  /** The full post, as answered after a move. */
  const read = (workspaceId: string, postId: string) =>
    Effect.map(
      sql<PostRow>`SELECT ${sql.literal(postColumns)} FROM posts WHERE id = ${postId} AND workspace_id = ${workspaceId}`,
      (rows) => hydrate(rows, baseUrl)[0]!
    )

  /**
   * Gives a post its new time: a new version (so the engine's message for the old one does nothing), its
   * time and sort order, and `post.rescheduled` with the full post. Its seats are the caller's to move.
   */
  const reschedule = (workspaceId: string, postId: string, at: Date) =>
    Effect.gen(function*() {
      // The post is locked by the caller's transaction: its row is there to update.
      const updated = yield* Effect.orDie(rescheduled({ postId, at }))
      const post = yield* read(workspaceId, postId)
      yield* Events.record(sql, workspaceId, "post.rescheduled", { postId, post: shape.show(post) })
      return { post, version: updated.version } satisfies Rescheduled
    })

  return { lockPosts, lockQueue, holder, read, reschedule }
}

/** Hands the moved posts to the engine at their new times, after the commit; one awaiting approval waits for it. */
export const handOver = (scheduler: Scheduler["Service"], moved: ReadonlyArray<Rescheduled>) =>
  Effect.forEach(
    moved,
    ({ post, version }) =>
      PostStatus.isDue(post.status) && post.scheduledAt !== null
        ? scheduler.schedule(post.id, version, new Date(post.scheduledAt))
        : Effect.void,
    { discard: true }
  )
