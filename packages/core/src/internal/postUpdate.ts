import { Effect } from "effect"
import { Post, PostStatus } from "@herald/domain"
import * as Events from "../Events.ts"
import type { CreateInput, UpdateInput } from "../Posts.ts"
import type * as PostShape from "../PostShape.ts"
import type { PostsContext } from "./postContext.ts"
import { type Actor, actorData, PostConflict, PostInvalid, PostNotFound, refused, type Restriction, workspaceActor } from "./postErrors.ts"
import { scheduledTime } from "./postRules.ts"
import * as QueueSeats from "./queueSeats.ts"

/** `Posts.update`: a patch merged over the post, checked whole, its seat kept, moved or freed. */
export const makeUpdate = ({ check, needsApproval, one, scheduler, seats, shape, sql }: PostsContext) => {
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

  return update
}
