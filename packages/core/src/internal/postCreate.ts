import { Effect, Metric } from "effect"
import { Post, PostStatus } from "@herald/domain"
import * as Events from "../Events.ts"
import * as Ids from "../Ids.ts"
import * as Metrics from "../Metrics.ts"
import type { CreateInput } from "../Posts.ts"
import type { PostsContext } from "./postContext.ts"
import { type Actor, actorData, PostInvalid, workspaceActor } from "./postErrors.ts"
import * as QueueSeats from "./queueSeats.ts"

/** The `timing` label of `herald_posts_created_total`: how the post was asked to go out. */
const timing = (input: CreateInput): "draft" | "queued" | "publish_now" | "scheduled" =>
  input.draft === true ? "draft" : input.queued === true ? "queued" : input.publishNow === true ? "publish_now" : "scheduled"

// One series per timing, made once rather than per create.
const createdBy = {
  draft: Metric.withAttributes(Metrics.postsCreated, { timing: "draft" }),
  queued: Metric.withAttributes(Metrics.postsCreated, { timing: "queued" }),
  publish_now: Metric.withAttributes(Metrics.postsCreated, { timing: "publish_now" }),
  scheduled: Metric.withAttributes(Metrics.postsCreated, { timing: "scheduled" })
}

/** Counted once the post's row has committed: a create that failed or rolled back is not a post. */
const countCreated = (input: CreateInput) => Metric.update(createdBy[timing(input)], 1)

/** `Posts.create`: checked, then written in one statement; a queued post takes its seat in a transaction. */
export const makeCreate = ({ baseUrl, check, needsApproval, scheduler, seats, shape, sql }: PostsContext) =>
  Effect.fn("Posts.create")(function*(workspaceId: string, input: CreateInput, actor?: Actor) {
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
        Effect.tap(() => countCreated(input)),
        Effect.tap((post) => scheduler.schedule(id, 1, new Date(post.scheduledAt!)))
      )
    }
    const post = yield* insert(scheduledAt, false)
    yield* countCreated(input)
    // After the commit: the engine re-reads the post when the message arrives.
    if (scheduledAt !== null && PostStatus.isDue(post.status)) yield* scheduler.schedule(id, 1, scheduledAt)
    return post
  })
