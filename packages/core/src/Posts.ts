import { Clock, Context, Effect, Layer, Option } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { Permissions, type Post, type PostRequest, PostStatus } from "@herald/domain"
import * as Events from "./Events.ts"
import { fieldsOf, hydrate, postColumns, type PostRow, rowOfJson } from "./internal/postRows.ts"
import { makeCheck } from "./internal/postCheck.ts"
import { makeCreate } from "./internal/postCreate.ts"
import {
  type Actor,
  PostConflict,
  type PostForbidden,
  type PostInvalid,
  PostNotFound,
  PostsError,
  refused,
  type Restriction
} from "./internal/postErrors.ts"
import { makeEvents, type PostEvent } from "./internal/postEvents.ts"
import { makeReview } from "./internal/postReview.ts"
import { makeUpdate } from "./internal/postUpdate.ts"
import { makeValidate, type Validation } from "./internal/postValidate.ts"
import * as QueueSeats from "./internal/queueSeats.ts"
import { Networks } from "./Networks.ts"
import * as PostShape from "./PostShape.ts"
import { PublicUrl } from "./PublicUrl.ts"
import { Scheduler } from "./Scheduler.ts"
import * as ServiceError from "./ServiceError.ts"

export {
  type Actor,
  PostConflict,
  PostForbidden,
  PostInvalid,
  PostNotFound,
  PostsError,
  type PostsReason,
  type Restriction,
  workspaceActor
} from "./internal/postErrors.ts"

export type { NetworkCheck, TextCount, Validation, VersionSummary } from "./internal/postValidate.ts"
export type { PostEvent } from "./internal/postEvents.ts"

/** A type's optional fields also taking `undefined`, as callers that pass an absent value along write them. */
type Loose<T> =
  & { readonly [K in keyof T as {} extends Pick<T, K> ? never : K]: T[K] }
  & { readonly [K in keyof T as {} extends Pick<T, K> ? K : never]?: T[K] | undefined }

/**
 * A create as the service takes it: the request's fields, named and typed once in the domain
 * (`PostRequest.CreatePayload`, which the API decodes). `queued` takes the earliest queue slot free for every
 * one of the post's accounts (docs/queue.md); `options` is each network's own options keyed by network
 * (`PostShape.split` of a request).
 */
export type CreateInput = Loose<PostRequest.CreatePayload>

/**
 * `PATCH`: only the fields sent change; `draft: false` with a time schedules a draft; `queued: false` takes a
 * queued post out of the queue at the time it has. A network whose options are top-level fields has each
 * field sent replaced; a `platformOptions` network has its object replaced as a whole.
 */
export type UpdateInput = Loose<PostRequest.UpdatePayload>

/**
 * A post of a list page: `key` is everything stored that it is shown from, as one text (two posts with the
 * same key show the same, in this process), and `show` builds it as clients read it.
 */
export interface ShownPost {
  readonly key: string
  readonly show: () => Record<string, unknown>
}

export interface ListInput {
  readonly from?: Date | undefined
  readonly to?: Date | undefined
  readonly statuses?: ReadonlyArray<Post.PostStatus> | undefined
  /** Only posts with a target on this account. */
  readonly accountId?: string | undefined
  readonly limit: number
  readonly cursor?: { readonly sortAt: Date; readonly id: string } | undefined
}

export class Posts extends Context.Service<Posts, {
  create(workspaceId: string, input: CreateInput, actor?: Actor): Effect.Effect<Post.Post, PostsError<PostInvalid>>
  /** A create checked by the same rules and not saved: its problems, and each network's count and version. */
  validate(workspaceId: string, input: CreateInput): Effect.Effect<Validation>
  get(workspaceId: string, postId: string): Effect.Effect<Post.Post, PostsError<PostNotFound>>
  /** The post's events (`post.*`) in the order they happened, each as webhooks carry it. */
  events(workspaceId: string, postId: string): Effect.Effect<ReadonlyArray<PostEvent>, PostsError<PostNotFound>>
  list(workspaceId: string, input: ListInput): Effect.Effect<{
    readonly posts: ReadonlyArray<Post.Post>
    readonly next: Option.Option<{ readonly sortAt: Date; readonly id: string }>
  }>
  /**
   * `list`'s page with each post as clients read it (`PostShape.show`), not checked: the caller's response
   * schema checks it, once. Building `Post` objects to encode them again checked every field twice, a third
   * of a page's CPU. Each post comes with its stored form as text (`ShownPost.key`), and is shown only when
   * asked: a caller that kept what it made of the same key needs neither.
   */
  listShown(workspaceId: string, input: ListInput): Effect.Effect<{
    readonly posts: ReadonlyArray<ShownPost>
    readonly next: Option.Option<{ readonly sortAt: Date; readonly id: string }>
  }>
  /** `only`: the statuses the caller may delete from (the MCP tool: draft and scheduled); any but publishing by default. */
  remove(workspaceId: string, postId: string, only?: Restriction): Effect.Effect<void, PostsError<PostNotFound | PostConflict>>
  /** `only`: the statuses the caller may change (the MCP tool: draft and scheduled); draft, awaiting approval, scheduled by default. */
  update(workspaceId: string, postId: string, patch: UpdateInput, only?: Restriction, actor?: Actor): Effect.Effect<
    Post.Post,
    PostsError<PostInvalid | PostNotFound | PostConflict>>
  /** A draft with a time goes to approval (`post.submitted`). */
  submit(workspaceId: string, postId: string, actor: Actor): Effect.Effect<
    Post.Post,
    PostsError<PostInvalid | PostNotFound | PostConflict>>
  /** A post awaiting approval is scheduled (`post.approved`); past its time, it goes out now (`publishing`). */
  approve(workspaceId: string, postId: string, actor: Actor, note?: string): Effect.Effect<
    Post.Post,
    PostsError<PostNotFound | PostConflict | PostForbidden>>
  /** A post awaiting approval goes back to draft with a note (`post.changes_requested`). */
  requestChanges(workspaceId: string, postId: string, actor: Actor, note: string): Effect.Effect<
    Post.Post,
    PostsError<PostNotFound | PostConflict | PostForbidden>>
  retry(workspaceId: string, postId: string): Effect.Effect<Post.Post, PostsError<PostNotFound | PostConflict>>
}>()("@herald/core/Posts") {
  static readonly layer = Layer.effect(
    Posts,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const networks = yield* Networks
      const baseUrl = yield* PublicUrl
      const scheduler = yield* Scheduler

      const one = (workspaceId: string, postId: string): Effect.Effect<Post.Post, PostNotFound | SqlError.SqlError> =>
        Effect.gen(function*() {
          const rows = yield* sql<PostRow>`
            SELECT ${sql.literal(postColumns)} FROM posts WHERE id = ${postId} AND workspace_id = ${workspaceId}`
          if (rows.length === 0) return yield* new PostNotFound({ postId })
          const [post] = hydrate(rows, baseUrl)
          return post!
        })

      const shape = PostShape.make(networks.all)
      const check = makeCheck(sql, networks, baseUrl, shape)
      const seats = QueueSeats.make(sql)
      const validate = makeValidate(check, networks)
      const readEvents = makeEvents(sql)

      /**
       * Whether this actor's scheduling waits for approval: an editor, in a workspace that requires it; an
       * assistant connected by OAuth that its member did not let publish directly, in a workspace that holds
       * assistants' posts (decision 0048). API keys and people are not assistants.
       */
      const needsApproval = (workspaceId: string, actor: Actor | undefined) => {
        const editor = actor !== undefined && !Permissions.can(actor.role, "publishWithoutApproval")
        const heldAssistant = actor?.assistant !== undefined && !actor.assistant.publishesDirectly
        return !editor && !heldAssistant
          ? Effect.succeed(false)
          : Effect.map(
            sql<{ readonly approvalRequired: boolean; readonly assistantApproval: boolean }>`
              SELECT approval_required, assistant_approval FROM workspaces WHERE id = ${workspaceId}`,
            (rows) => (editor && rows[0]?.approvalRequired === true) || (heldAssistant && rows[0]?.assistantApproval === true)
          )
      }

      const context = { sql, baseUrl, scheduler, shape, check, seats, one, needsApproval }
      const create = makeCreate(context)
      const update = makeUpdate(context)
      const { approve, requestChanges, submit } = makeReview(context)

      const get = Effect.fn("Posts.get")(function*(workspaceId: string, postId: string) {
        return yield* one(workspaceId, postId)
      })

      const events = Effect.fn("Posts.events")(function*(workspaceId: string, postId: string) {
        const found = yield* readEvents(workspaceId, postId)
        if (found === undefined) return yield* new PostNotFound({ postId })
        return found
      })

      // A page's rows in order: the posts of the workspace that pass the filter, one more than asked for.
      const pageRows = (workspaceId: string, input: ListInput) =>
        sql`SELECT ${sql.literal(postColumns)} FROM posts WHERE workspace_id = ${workspaceId}
          ${input.from === undefined ? sql`` : sql`AND sort_at >= ${input.from}`}
          ${input.to === undefined ? sql`` : sql`AND sort_at < ${input.to}`}
          ${input.statuses === undefined ? sql`` : sql`AND ${sql.in("status", input.statuses)}`}
          ${
          input.accountId === undefined
            ? sql``
            : sql`AND EXISTS (SELECT 1 FROM post_targets t WHERE t.post_id = posts.id AND t.account_id = ${input.accountId})`
        }
          ${input.cursor === undefined ? sql`` : sql`AND (sort_at, id) > (${input.cursor.sortAt}, ${input.cursor.id})`}
          ORDER BY sort_at, id LIMIT ${input.limit + 1}`

      const paged = <Row extends { readonly sortAt: Date; readonly id: string }>(rows: ReadonlyArray<Row>, limit: number) => {
        const found = rows.slice(0, limit)
        const last = found.at(-1)
        return {
          rows: found,
          next: rows.length > limit && last !== undefined
            ? Option.some({ sortAt: last.sortAt, id: last.id })
            : Option.none()
        }
      }

      const list = Effect.fn("Posts.list")(function*(workspaceId: string, input: ListInput) {
        const { next, rows } = paged(yield* sql<PostRow>`${pageRows(workspaceId, input)}`, input.limit)
        return { posts: hydrate(rows, baseUrl), next }
      })

      const listShown = Effect.fn("Posts.listShown")(function*(workspaceId: string, input: ListInput) {
        // Each row as one text: nothing in it is parsed unless the caller asks for the post shown.
        const { next, rows } = paged(
          yield* sql<{ readonly sortAt: Date; readonly id: string; readonly raw: string }>`
            SELECT p.sort_at, p.id, to_json(p)::text AS raw FROM (${pageRows(workspaceId, input)}) p
            ORDER BY p.sort_at, p.id`,
          input.limit
        )
        return {
          posts: rows.map((row): ShownPost => ({
            key: row.raw,
            // `show` reads a post's fields only, so the unchecked fields serve as well as a `Post`.
            show: () => shape.show(fieldsOf(rowOfJson(row.raw), baseUrl))
          })),
          next
        }
      })

      const remove = Effect.fn("Posts.remove")(function*(workspaceId: string, postId: string, only?: Restriction) {
        return yield* sql.withTransaction(Effect.gen(function*() {
          const [row] = yield* sql<{ readonly status: Post.PostStatus }>`
            SELECT status FROM posts WHERE id = ${postId} AND workspace_id = ${workspaceId} FOR UPDATE`
          if (row === undefined) return yield* new PostNotFound({ postId })
          if (only !== undefined && !only.statuses.includes(row.status)) return yield* refused(postId, row.status, only)
          if (!PostStatus.isDeletable(row.status)) {
            return yield* new PostConflict({ message: `Post ${postId} is going out right now; it can be deleted once it has` })
          }
          yield* sql`DELETE FROM posts WHERE id = ${postId}`
          yield* Events.record(sql, workspaceId, "post.deleted", { postId })
        }))
      })
      const retry = Effect.fn("Posts.retry")(function*(workspaceId: string, postId: string) {
        const { now, post, version } = yield* sql.withTransaction(Effect.gen(function*() {
          const [locked] = yield* sql<{ readonly status: Post.PostStatus }>`
            SELECT status FROM posts WHERE id = ${postId} AND workspace_id = ${workspaceId} FOR UPDATE`
          if (locked === undefined) return yield* new PostNotFound({ postId })
          const status = PostStatus.onRetry(locked.status)
          if (status === undefined) {
            return yield* new PostConflict({ message: `Post ${postId} is ${locked.status}; only partial or failed posts can be retried` })
          }
          const now = new Date(yield* Clock.currentTimeMillis)
          // Published targets are left alone; the failed ones go out again, now.
          yield* sql`UPDATE post_targets SET status = 'pending', error = NULL WHERE post_id = ${postId} AND status = 'failed'`
          const [updated] = yield* sql<{ readonly version: number }>`
            UPDATE posts SET status = ${status}, scheduled_at = ${now}, sort_at = ${now}, version = version + 1,
              publish_note = NULL, queued = false, updated_at = now()
            WHERE id = ${postId}
            RETURNING version`
          // Sent again now, it is no longer at its queue slot.
          yield* seats.release(postId)
          const post = yield* one(workspaceId, postId)
          yield* Events.record(sql, workspaceId, "post.retried", { postId, post: shape.show(post) })
          return { now, post, version: updated!.version }
        }))
        yield* scheduler.schedule(postId, version, now)
        return post
      })

      return Posts.of(ServiceError.service(PostsError)({ create, validate, get, events, list, listShown, remove, update, retry, submit, approve, requestChanges }))
    })
  )
}
