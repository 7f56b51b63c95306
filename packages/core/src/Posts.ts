import { Clock, Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { Post, PostStatus, type Workspace } from "@herald/domain"
import * as Events from "./Events.ts"
import * as Ids from "./Ids.ts"
import { hydrate, postColumns, type PostRow } from "./internal/postRows.ts"
import { makeCheck } from "./internal/postCheck.ts"
import { scheduledTime } from "./internal/postRules.ts"
import { makeValidate, type Validation } from "./internal/postValidate.ts"
import { makeEvents, type PostEvent } from "./internal/postEvents.ts"
import * as QueueSeats from "./internal/queueSeats.ts"
import { Networks } from "./Networks.ts"
import * as PostShape from "./PostShape.ts"
import { PublicUrl } from "./PublicUrl.ts"
import { Scheduler } from "./Scheduler.ts"

/** The request breaks rules: every problem, as one message and as data. */
export class PostInvalid extends Schema.TaggedError<PostInvalid>()("PostInvalid", {
  problems: Schema.Array(Schema.Struct({ field: Schema.String, message: Schema.String, network: Schema.optionalKey(Schema.String) }))
}) {
  override get message() {
    return this.problems.map((problem) => problem.message).join("; ")
  }
}

export type { NetworkCheck, TextCount, Validation, VersionSummary } from "./internal/postValidate.ts"
export type { PostEvent } from "./internal/postEvents.ts"

export class PostNotFound extends Schema.TaggedError<PostNotFound>()("PostNotFound", { postId: Schema.String }) {
  override get message() {
    return `Post ${this.postId} does not exist`
  }
}

export class PostConflict extends Schema.TaggedError<PostConflict>()("PostConflict", { message: Schema.String }) {}

/** The key's member may not do this (an editor approving). */
export class PostForbidden extends Schema.TaggedError<PostForbidden>()("PostForbidden", { message: Schema.String }) {}

/**
 * Who acts on a post: the member a key acts for and the member's role, both null for a workspace key (which
 * may do anything); or a person outside the workspace through a review link (`profileId`).
 */
export interface Actor {
  readonly memberId: string | null
  readonly role: Workspace.Role | null
  readonly profileId?: string | undefined
}

/** A workspace key: what the REST API's callers without a member, the MCP tools and the operator act as. */
export const workspaceActor: Actor = { memberId: null, role: null }

/** Who may approve and send back: owners, admins, workspace keys and review links. */
const mayReview = (actor: Actor) => actor.profileId !== undefined || actor.role === null || actor.role === "owner" || actor.role === "admin"

/** Who they were, for the event: the member, or the review profile. */
const actorData = (actor: Actor) => ({
  ...(actor.memberId === null ? {} : { memberId: actor.memberId }),
  ...(actor.profileId === undefined ? {} : { profileId: actor.profileId })
})

export interface CreateInput {
  readonly content?: string | undefined
  readonly accountIds: ReadonlyArray<string>
  readonly mediaIds?: ReadonlyArray<string> | undefined
  readonly scheduledAt?: string | undefined
  readonly publishNow?: boolean | undefined
  /**
   * The post takes the earliest queue slot free for every one of its accounts (docs/queue.md). In a patch,
   * `false` takes a queued post out of the queue at the time it has.
   */
  readonly queued?: boolean | undefined
  readonly draft?: boolean | undefined
  readonly platformContent?: Record<string, string> | undefined
  readonly firstComment?: string | null | undefined
  /**
   * Each network's own options, keyed by network (`PostShape.split` of a request). In a patch, a network
   * whose options are top-level fields has each field sent replaced; a `platformOptions` network has its
   * object replaced as a whole.
   */
  readonly options?: PostShape.Document | undefined
}

/** `PATCH`: only the fields sent change; `draft: false` with a time schedules a draft. */
export type UpdateInput = Partial<Omit<CreateInput, "publishNow" | "draft">> & { readonly draft?: boolean | undefined }

export interface ListInput {
  readonly from?: Date | undefined
  readonly to?: Date | undefined
  readonly statuses?: ReadonlyArray<Post.PostStatus> | undefined
  /** Only posts with a target on this account. */
  readonly accountId?: string | undefined
  readonly limit: number
  readonly cursor?: { readonly sortAt: Date; readonly id: string } | undefined
}

/** A caller narrower than the REST API: which statuses it may act on, and who it is (for the refusal's message). */
export interface Restriction {
  readonly statuses: ReadonlyArray<Post.PostStatus>
  readonly caller: string
}

const refused = (postId: string, status: string, only: Restriction) =>
  new PostConflict({
    message: `Post ${postId} is ${status.replace("_", " ")}; ${only.caller} acts only on ${only.statuses.map((name) => name.replace("_", " ")).join(" or ")} posts`
  })

export class Posts extends Context.Service<Posts, {
  create(workspaceId: string, input: CreateInput, actor?: Actor): Effect.Effect<Post.Post, PostInvalid | SqlError.SqlError>
  /** A create checked by the same rules and not saved: its problems, and each network's count and version. */
  validate(workspaceId: string, input: CreateInput): Effect.Effect<Validation, SqlError.SqlError>
  get(workspaceId: string, postId: string): Effect.Effect<Post.Post, PostNotFound | SqlError.SqlError>
  /** The post's events (`post.*`) in the order they happened, each as webhooks carry it. */
  events(workspaceId: string, postId: string): Effect.Effect<ReadonlyArray<PostEvent>, PostNotFound | SqlError.SqlError>
  list(workspaceId: string, input: ListInput): Effect.Effect<{
    readonly posts: ReadonlyArray<Post.Post>
    readonly next: Option.Option<{ readonly sortAt: Date; readonly id: string }>
  }, SqlError.SqlError>
  /** `only`: the statuses the caller may delete from (the MCP tool: draft and scheduled); any but publishing by default. */
  remove(workspaceId: string, postId: string, only?: Restriction): Effect.Effect<void, PostNotFound | PostConflict | SqlError.SqlError>
  /** `only`: the statuses the caller may change (the MCP tool: draft and scheduled); draft, awaiting approval, scheduled by default. */
  update(workspaceId: string, postId: string, patch: UpdateInput, only?: Restriction, actor?: Actor): Effect.Effect<
    Post.Post,
    PostInvalid | PostNotFound | PostConflict | SqlError.SqlError
  >
  /** A draft with a time goes to approval (`post.submitted`). */
  submit(workspaceId: string, postId: string, actor: Actor): Effect.Effect<
    Post.Post,
    PostInvalid | PostNotFound | PostConflict | SqlError.SqlError
  >
  /** A post awaiting approval is scheduled (`post.approved`); past its time, it goes out now (`publishing`). */
  approve(workspaceId: string, postId: string, actor: Actor, note?: string): Effect.Effect<
    Post.Post,
    PostNotFound | PostConflict | PostForbidden | SqlError.SqlError
  >
  /** A post awaiting approval goes back to draft with a note (`post.changes_requested`). */
  requestChanges(workspaceId: string, postId: string, actor: Actor, note: string): Effect.Effect<
    Post.Post,
    PostNotFound | PostConflict | PostForbidden | SqlError.SqlError
  >
  retry(workspaceId: string, postId: string): Effect.Effect<Post.Post, PostNotFound | PostConflict | SqlError.SqlError>
}>()("@herald/core/Posts") {
  static readonly layer = Layer.effect(
    Posts,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const networks = yield* Networks
      const baseUrl = yield* PublicUrl
      const scheduler = yield* Scheduler

      /**
       * A patch's options over the post's: a network whose options are top-level fields has each field
       * sent replaced; a `platformOptions` network has its object replaced as a whole.
       */
      const patchOptions = (current: PostShape.Document, patch: PostShape.Document): PostShape.Document => {
        const merged: Record<string, Readonly<Record<string, unknown>>> = { ...current }
        for (const [network, object] of Object.entries(patch)) {
          const placement = shape.declared.find((entry) => entry.network === network)?.options.placement
          merged[network] = placement === "top" ? { ...current[network], ...object } : object
        }
        return merged
      }

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

      const writeParts = Effect.fnUntraced(function*(
        id: string,
        accountIds: ReadonlyArray<string>,
        accounts: ReadonlyArray<{ readonly id: string; readonly platform: string; readonly username: string }>,
        mediaIds: ReadonlyArray<string>,
        replace: boolean
      ) {
        if (replace) {
          yield* sql`DELETE FROM post_targets WHERE post_id = ${id}`
          yield* sql`DELETE FROM post_media WHERE post_id = ${id}`
        }
        // One statement each for all targets and all media: a create costs the same few round trips however
        // many accounts it goes to.
        const targetRows = accountIds.map((accountId, position) => {
          const account = accounts.find((entry) => entry.id === accountId)!
          return { post_id: id, position, account_id: accountId, platform: account.platform, username: account.username }
        })
        if (targetRows.length > 0) yield* sql`INSERT INTO post_targets ${sql.insert(targetRows as [typeof targetRows[number], ...Array<typeof targetRows[number]>])}`
        const mediaRows = mediaIds.map((mediaId, position) => ({ post_id: id, position, media_id: mediaId }))
        if (mediaRows.length > 0) yield* sql`INSERT INTO post_media ${sql.insert(mediaRows as [typeof mediaRows[number], ...Array<typeof mediaRows[number]>])}`
      })

      /** Whether this actor's scheduling waits for approval: an editor, in a workspace that requires it. */
      const needsApproval = (workspaceId: string, actor: Actor | undefined) =>
        actor?.role !== "editor"
          ? Effect.succeed(false)
          : Effect.map(
            sql<{ readonly approvalRequired: boolean }>`SELECT approval_required FROM workspaces WHERE id = ${workspaceId}`,
            (rows) => rows[0]?.approvalRequired === true
          )

      const create = Effect.fn("Posts.create")(function*(workspaceId: string, input: CreateInput, actor?: Actor) {
        const { accountIds, accounts, draft, draftPost, mediaIds, now, platformContent, problems, scheduledAt } = yield* check(
          workspaceId,
          input,
          true
        )
        if (problems.length > 0) return yield* new PostInvalid({ problems })

        const id = yield* Ids.make("pst")
        const awaiting = !draft && (yield* needsApproval(workspaceId, actor))
        // Written in one statement, and answered as written.
        const insert = (scheduledAt: Date | null, queued: boolean) =>
          Effect.gen(function*() {
            // Sent now, it is not scheduled: it is going out (the engine takes it from `publishing` on).
            const status = PostStatus.onCreate({ draft, awaitingApproval: awaiting, publishNow: input.publishNow === true })
            // Built from what is written rather than read back, and written in one statement (a single statement
            // is atomic, so post, targets, media and the event commit together): a create is two round trips.
            const post = new Post.Post({
              id,
              status,
              content: draftPost.content,
              platformContent,
              firstComment: draftPost.firstComment,
              options: draftPost.options,
              queued,
              scheduledAt: scheduledAt === null ? null : scheduledAt.toISOString(),
              publishedAt: null,
              createdAt: new Date(now).toISOString(),
              media: draftPost.media.map((item) =>
                new Post.PostMedia({
                  id: item.id,
                  kind: item.kind,
                  url: item.url,
                  previewUrl: item.kind === "image" ? `${baseUrl}/media/${item.id}.preview.jpg` : null,
                  alt: item.alt
                })
              ),
              targets: accountIds.map((accountId) => {
                const account = accounts.find((entry) => entry.id === accountId)!
                return new Post.Target({
                  accountId,
                  platform: account.platform,
                  username: account.username,
                  status: "pending",
                  url: null,
                  error: null
                })
              })
            })
            const targetRows = accountIds.map((accountId, position) => {
              const account = accounts.find((entry) => entry.id === accountId)!
              return { post_id: id, position, account_id: accountId, platform: account.platform, username: account.username }
            })
            const mediaRows = mediaIds.map((mediaId, position) => ({ post_id: id, position, media_id: mediaId }))
            // A post sent now has no event of its own: the next one it emits is its outcome (`post.published`, ...).
            const created = status === PostStatus.publishing
              ? []
              : [Events.row(workspaceId, draft || awaiting ? "post.created" : "post.scheduled", { postId: id, post: shape.show(post), status })]
            const eventRows = awaiting
              ? [...created, Events.row(workspaceId, "post.submitted", { postId: id, post: shape.show(post), ...actorData(actor ?? workspaceActor) })]
              : created
            yield* sql`
              WITH inserted_post AS (
                INSERT INTO posts (id, workspace_id, status, content, platform_content, first_comment, options, queued,
                  scheduled_at, sort_at, created_at)
                VALUES (${id}, ${workspaceId}, ${status}, ${draftPost.content}, ${JSON.stringify(platformContent)}::jsonb,
                  ${draftPost.firstComment}, ${JSON.stringify(draftPost.options)}::jsonb, ${queued}, ${scheduledAt},
                  ${scheduledAt ?? new Date(now)}, ${new Date(now)})
                RETURNING id
              ), inserted_targets AS (
                INSERT INTO post_targets ${sql.insert(targetRows as [typeof targetRows[number], ...Array<typeof targetRows[number]>])}
                RETURNING post_id
              )${
              mediaRows.length === 0
                ? sql``
                : sql`, inserted_media AS (
                INSERT INTO post_media ${sql.insert(mediaRows as [typeof mediaRows[number], ...Array<typeof mediaRows[number]>])}
                RETURNING post_id
              )`
            }
${
              eventRows.length === 0
                ? sql`
              SELECT id FROM inserted_post`
                : sql`
              INSERT INTO events (id, workspace_id, event, data) VALUES ${
                  sql.join(", ", false)(eventRows.map((row) => sql`(${row.id}, ${row.workspaceId}, ${row.event}, ${row.data}::jsonb)`))
                }`
            }
            `
            return post
          })

        if (input.queued === true) {
          // The slot is found and taken with the accounts' queue turn held: a racing create waits for this
          // one's commit, then sees its seat (the seats' key is what holds if it did not).
          // The schedules are read before the turn is taken: it is held for as short a time as can be.
          const plan = yield* seats.plan(workspaceId, accountIds)
          return yield* sql.withTransaction(Effect.gen(function*() {
            yield* seats.lock(accountIds)
            const found = yield* seats.earliestFree(plan, new Date(now))
            if (!("at" in found)) return yield* new PostInvalid({ problems: [found] })
            const post = yield* insert(found.at, true)
            yield* seats.seat(workspaceId, id, accountIds, found.at)
            return post
          })).pipe(
            Effect.retry({ while: (error) => error._tag === "SqlError" && QueueSeats.isSeatTaken(error), times: 3 }),
            Effect.tap((post) => scheduler.schedule(id, 1, new Date(post.scheduledAt!)))
          )
        }
        const post = yield* insert(scheduledAt, false)
        // After the commit: the engine re-reads the post when the message arrives.
        if (scheduledAt !== null && PostStatus.isDue(post.status)) yield* scheduler.schedule(id, 1, scheduledAt)
        return post
      })

      const get = Effect.fn("Posts.get")(function*(workspaceId: string, postId: string) {
        return yield* one(workspaceId, postId)
      })

      const events = Effect.fn("Posts.events")(function*(workspaceId: string, postId: string) {
        const found = yield* readEvents(workspaceId, postId)
        if (found === undefined) return yield* new PostNotFound({ postId })
        return found
      })

      const list = Effect.fn("Posts.list")(function*(workspaceId: string, input: ListInput) {
        const rows = yield* sql<PostRow>`
          SELECT ${sql.literal(postColumns)} FROM posts WHERE workspace_id = ${workspaceId}
          ${input.from === undefined ? sql`` : sql`AND sort_at >= ${input.from}`}
          ${input.to === undefined ? sql`` : sql`AND sort_at < ${input.to}`}
          ${input.statuses === undefined ? sql`` : sql`AND ${sql.in("status", input.statuses)}`}
          ${
          input.accountId === undefined
            ? sql``
            : sql`AND EXISTS (SELECT 1 FROM post_targets t WHERE t.post_id = posts.id AND t.account_id = ${input.accountId})`
        }
          ${input.cursor === undefined ? sql`` : sql`AND (sort_at, id) > (${input.cursor.sortAt}, ${input.cursor.id})`}
          ORDER BY sort_at, id LIMIT ${input.limit + 1}
        `
        const page = rows.slice(0, input.limit)
        const last = page.at(-1)
        return {
          posts: hydrate(page, baseUrl),
          next: rows.length > input.limit && last !== undefined ? Option.some({ sortAt: last.sortAt, id: last.id }) : Option.none()
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

      /**
       * The seat a queued post has after a change: the one it holds while it is still free for every account
       * (a new account must have the slot too); otherwise the earliest free from now. The schedule changing
       * does not move it: only `POST /queue/rebuild` does.
       */
      const reseat = (workspaceId: string, current: Post.Post, accountIds: ReadonlyArray<string>, now: number) =>
        Effect.gen(function*() {
          yield* seats.lock(accountIds)
          const plan = yield* seats.plan(workspaceId, accountIds)
          const held = current.queued && current.scheduledAt !== null ? new Date(current.scheduledAt) : undefined
          const before = current.targets.map((target) => target.accountId)
          const sameAccounts = accountIds.length === before.length && accountIds.every((id) => before.includes(id))
          const keep = held !== undefined && held.getTime() >= now &&
            (sameAccounts || QueueSeats.isSlotForAll(plan, held)) && (yield* seats.isFree(accountIds, held, current.id))
          const found = keep ? { at: held } : yield* seats.earliestFree(plan, new Date(now), current.id)
          if (!("at" in found)) return found
          yield* seats.release(current.id)
          yield* seats.seat(workspaceId, current.id, accountIds, found.at)
          return found.at
        })

      const update = Effect.fn("Posts.update")(function*(
        workspaceId: string,
        postId: string,
        patch: UpdateInput,
        only?: Restriction,
        actor?: Actor
      ) {
        const approval = yield* needsApproval(workspaceId, actor)
        const { post, version } = yield* sql.withTransaction(Effect.gen(function*() {
          const [locked] = yield* sql<{ readonly status: Post.PostStatus }>`
            SELECT status FROM posts WHERE id = ${postId} AND workspace_id = ${workspaceId} FOR UPDATE`
          if (locked === undefined) return yield* new PostNotFound({ postId })
          if (only !== undefined && !only.statuses.includes(locked.status)) return yield* refused(postId, locked.status, only)
          if (!PostStatus.isEditable(locked.status)) {
            return yield* new PostConflict({
              message: `Post ${postId} is ${locked.status}; only draft, awaiting approval or scheduled posts can change`
            })
          }
          const current = yield* one(workspaceId, postId)
          const queueing = patch.queued === true
          const toDraft = patch.draft === true || (patch.draft === undefined && !queueing && current.status === PostStatus.draft)
          const scheduledAt = patch.scheduledAt ?? current.scheduledAt ?? undefined
          if (!toDraft && !queueing && scheduledAt === undefined) {
            return yield* new PostInvalid({
              problems: [{ field: "scheduledAt", message: "Scheduling a draft needs scheduledAt (with draft: false)" }]
            })
          }
          const merged: CreateInput = {
            content: patch.content ?? current.content,
            accountIds: patch.accountIds ?? current.targets.map((target) => target.accountId),
            mediaIds: patch.mediaIds ?? current.media.map((item) => item.id),
            platformContent: patch.platformContent ?? current.platformContent,
            firstComment: patch.firstComment === undefined ? current.firstComment : patch.firstComment,
            options: patchOptions(current.options, patch.options ?? {}),
            // Two timing choices sent together are refused by the check, as on create.
            ...(toDraft ? { draft: true } : {}),
            ...(queueing ? { queued: true } : {}),
            ...(!toDraft && (!queueing || patch.scheduledAt !== undefined) ? { scheduledAt } : {})
          }
          const timeChanged = patch.scheduledAt !== undefined && patch.scheduledAt !== current.scheduledAt
          const checked = yield* check(workspaceId, merged, timeChanged || (current.status === PostStatus.draft && !toDraft))
          // A draft may be given its planned time (the one submit asks approval for) and stay a draft; the time
          // is checked like any other.
          const draftTime = toDraft && patch.scheduledAt !== undefined
            ? scheduledTime(patch.scheduledAt, timeChanged ? checked.now : Number.NEGATIVE_INFINITY)
            : undefined
          const problems = draftTime === undefined || "at" in draftTime ? checked.problems : [...checked.problems, draftTime]
          if (problems.length > 0) return yield* new PostInvalid({ problems })
          // A queued post keeps its seat through other changes; a time, a draft or `queued: false` takes it out.
          const stays = !toDraft && (queueing || (current.queued && patch.scheduledAt === undefined && patch.queued !== false))
          const seatAt = stays
            ? yield* reseat(workspaceId, current, checked.accountIds, checked.now)
            : current.queued
            ? yield* Effect.as(seats.release(postId), undefined)
            : undefined
          if (seatAt !== undefined && !(seatAt instanceof Date)) return yield* new PostInvalid({ problems: [seatAt] })
          // An editor's change under approval goes (back) to approval rather than to the schedule.
          // A time already come (up to a minute past is accepted) sends it now: going out, not scheduled.
          const status = PostStatus.onPatch(current.status, {
            toDraft,
            needsApproval: approval,
            timeHasCome: !stays && checked.scheduledAt !== null && checked.scheduledAt.getTime() <= checked.now
          }) ?? current.status
          // A draft keeps the time it had (sent back for changes, it is what will be asked again) unless the
          // patch sets one.
          const planned = seatAt !== undefined
            ? seatAt
            : !toDraft
            ? checked.scheduledAt
            : draftTime !== undefined && "at" in draftTime
            ? draftTime.at
            : current.scheduledAt === null
            ? null
            : new Date(current.scheduledAt)
          const draftPost = checked.draftPost
          const [updated] = yield* sql<{ readonly version: number }>`
            UPDATE posts SET status = ${status}, content = ${draftPost.content},
              platform_content = ${JSON.stringify(draftPost.platformContent)}::jsonb,
              first_comment = ${draftPost.firstComment}, options = ${JSON.stringify(draftPost.options)}::jsonb,
              queued = ${stays}, scheduled_at = ${planned}, sort_at = ${planned ?? new Date(current.createdAt)},
              version = version + 1, updated_at = now()
            WHERE id = ${postId}
            RETURNING version
          `
          yield* writeParts(postId, checked.accountIds, checked.accounts, checked.mediaIds, true)
          const post = yield* one(workspaceId, postId)
          const sent = Object.keys(patch).filter((field) => field !== "options" || Object.keys(patch.options ?? {}).length > 0)
          const onlyTime = sent.every((field) => field === "scheduledAt" || field === "queued") &&
            (planned?.toISOString() ?? null) !== current.scheduledAt
          yield* onlyTime
            ? Events.record(sql, workspaceId, "post.rescheduled", { postId, post: shape.show(post) })
            : Events.record(sql, workspaceId, "post.updated", { postId, post: shape.show(post), status })
          if (status === PostStatus.awaiting_approval && current.status !== PostStatus.awaiting_approval) {
            yield* Events.record(sql, workspaceId, "post.submitted", { postId, post: shape.show(post), ...actorData(actor ?? workspaceActor) })
          }
          return { post, version: updated!.version }
        }))
        // A new version: the message for the old one finds the post changed and does nothing.
        if (PostStatus.isDue(post.status) && post.scheduledAt !== null) {
          yield* scheduler.schedule(postId, version, new Date(post.scheduledAt))
        }
        return post
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

      /** Locks a post and moves it from one status to another, a new version; answers it with its time. */
      const move = Effect.fnUntraced(function*(
        workspaceId: string,
        postId: string,
        action: "submit" | "approve" | "requestChanges",
        verb: string
      ) {
        const from = PostStatus.sourceOf(action)
        const [locked] = yield* sql<{ readonly status: Post.PostStatus; readonly scheduledAt: Date | null }>`
          SELECT status, scheduled_at FROM posts WHERE id = ${postId} AND workspace_id = ${workspaceId} FOR UPDATE`
        if (locked === undefined) return yield* new PostNotFound({ postId })
        if (locked.status !== from) {
          return yield* new PostConflict({
            message: `Post ${postId} is ${locked.status.replace("_", " ")}; only ${from.replace("_", " ")} posts can be ${verb}`
          })
        }
        return locked
      })

      const submit = Effect.fn("Posts.submit")(function*(workspaceId: string, postId: string, actor: Actor) {
        return yield* sql.withTransaction(Effect.gen(function*() {
          const locked = yield* move(workspaceId, postId, "submit", "submitted")
          if (locked.scheduledAt === null) {
            return yield* new PostInvalid({
              problems: [{ field: "scheduledAt", message: "Give the draft a time (PATCH scheduledAt) before submitting it" }]
            })
          }
          yield* sql`UPDATE posts SET status = ${PostStatus.awaiting_approval}, version = version + 1, updated_at = now() WHERE id = ${postId}`
          const post = yield* one(workspaceId, postId)
          yield* Events.record(sql, workspaceId, "post.submitted", { postId, post: shape.show(post), ...actorData(actor) })
          return post
        }))
      })

      const approve = Effect.fn("Posts.approve")(function*(workspaceId: string, postId: string, actor: Actor, note?: string) {
        if (!mayReview(actor)) {
          return yield* new PostForbidden({ message: `The request acts for a member whose role is ${actor.role}; approving needs an owner or admin` })
        }
        const now = new Date(yield* Clock.currentTimeMillis)
        const { at, post, version } = yield* sql.withTransaction(Effect.gen(function*() {
          const locked = yield* move(workspaceId, postId, "approve", "approved")
          // Approved after its time: it goes out now.
          const at = locked.scheduledAt === null || locked.scheduledAt < now ? now : locked.scheduledAt
          const status = PostStatus.onApprove(at.getTime(), now.getTime())
          // Approved after its queue slot has passed, it goes out now: out of the queue.
          const late = at !== locked.scheduledAt
          const [updated] = yield* sql<{ readonly version: number }>`
            UPDATE posts SET status = ${status}, scheduled_at = ${at}, sort_at = ${at}, version = version + 1,
              queued = queued AND NOT ${late}, updated_at = now()
            WHERE id = ${postId} RETURNING version`
          if (late) yield* seats.release(postId)
          const post = yield* one(workspaceId, postId)
          yield* Events.record(sql, workspaceId, "post.approved", {
            postId,
            post: shape.show(post),
            ...(note === undefined ? {} : { note }),
            ...actorData(actor)
          })
          return { at, post, version: updated!.version }
        }))
        yield* scheduler.schedule(postId, version, at)
        return post
      })

      const requestChanges = Effect.fn("Posts.requestChanges")(function*(workspaceId: string, postId: string, actor: Actor, note: string) {
        if (!mayReview(actor)) {
          return yield* new PostForbidden({ message: `The request acts for a member whose role is ${actor.role}; sending a post back needs an owner or admin` })
        }
        return yield* sql.withTransaction(Effect.gen(function*() {
          yield* move(workspaceId, postId, "requestChanges", "sent back")
          // Back to draft, it leaves the queue; it keeps its time, the one asked again.
          yield* sql`UPDATE posts SET status = ${PostStatus.draft}, queued = false, version = version + 1, updated_at = now()
            WHERE id = ${postId}`
          yield* seats.release(postId)
          const post = yield* one(workspaceId, postId)
          yield* Events.record(sql, workspaceId, "post.changes_requested", { postId, post: shape.show(post), note, ...actorData(actor) })
          return post
        }))
      })

      return Posts.of({ create, validate, get, events, list, remove, update, retry, submit, approve, requestChanges })
    })
  )
}
