import { Clock, Effect } from "effect"
import { Post, PostStatus } from "@herald/domain"
import * as Events from "../Events.ts"
import type { PostsContext } from "./postContext.ts"
import { type Actor, actorData, mayReview, PostConflict, PostForbidden, PostInvalid, PostNotFound } from "./postErrors.ts"

/** Approval: a draft submitted, a post approved or sent back, each a new version with its event. */
export const makeReview = ({ needsApproval, one, scheduler, seats, shape, sql }: PostsContext) => {
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
    // An assistant whose own posts wait for a person would otherwise approve them itself.
    if (actor.assistant !== undefined && (yield* needsApproval(workspaceId, actor))) {
      return yield* new PostForbidden({
        message: "An assistant whose posts wait for approval may not approve posts; a person approves them in Herald"
      })
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

  return { submit, approve, requestChanges }
}
