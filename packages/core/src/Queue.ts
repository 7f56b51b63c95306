import { Clock, Context, Effect, Layer, Option, Random, Schema } from "effect"
import { SqlClient, type SqlError, SqlSchema } from "effect/sql"
import type { Post } from "@herald/domain"
import * as DieOnSql from "./internal/dieOnSql.ts"
import { AccountNotFound } from "./Connections.ts"
import * as QueueMoves from "./internal/queueMoves.ts"
import * as QueueSeats from "./internal/queueSeats.ts"
import * as QueueView from "./internal/queueView.ts"
import { dieOnBadRow } from "./internal/rows.ts"
import { Networks } from "./Networks.ts"
import { PostConflict, PostInvalid, PostNotFound } from "./Posts.ts"
import * as PostShape from "./PostShape.ts"
import { PublicUrl } from "./PublicUrl.ts"
import { Scheduler } from "./Scheduler.ts"

// The posting queue as a whole (docs/queue.md, decision 0039): its view, and the moves that change which
// queued post goes when. Every move keeps the seats' rule (a slot holds one queued post per account) and the
// lock order of every writer of existing posts: the posts' rows first, by id, then their accounts.

export type Seat = QueueView.Seat
export type Position = QueueView.Position
export type Move = QueueMoves.Move

export interface ViewInput {
  /** One account's queue; every connected account's when absent. */
  readonly accountId?: string | undefined
  /** Now when absent. */
  readonly from?: Date | undefined
  readonly limit: number
  readonly cursor?: Position | undefined
}

/** A page of the view; `next` is where the next page starts after, null on the last page. */
export interface ViewPage {
  readonly seats: ReadonlyArray<Seat>
  readonly next: Position | null
}

/** What a shuffle or rebuild did: the posts it moved, and how many it left where they were. */
export interface Moves {
  readonly moved: ReadonlyArray<Move>
  readonly unchanged: number
}

export class Queue extends Context.Service<Queue, {
  /** Upcoming slots of the accounts with the post seated in each, or none, by (instant, account). */
  view(workspaceId: string, input: ViewInput): Effect.Effect<ViewPage, AccountNotFound>
  /** A random new order among the queued posts that go to the same accounts: the same times, permuted. */
  shuffle(workspaceId: string, accountId?: string): Effect.Effect<Moves, AccountNotFound>
  /** A queued post to another slot, free for every one of its accounts. */
  move(workspaceId: string, postId: string, at: string): Effect.Effect<Post.Post, PostInvalid | PostNotFound | PostConflict>
  /** Two queued posts trade times. */
  swap(
    workspaceId: string,
    postIds: readonly [string, string]
  ): Effect.Effect<ReadonlyArray<Post.Post>, PostInvalid | PostNotFound | PostConflict>
  /** The queued posts re-seated, in their order, at the earliest free slots of the schedules as they are now. */
  rebuild(workspaceId: string, accountId?: string): Effect.Effect<Moves, AccountNotFound | PostConflict>
}>()("@herald/core/Queue") {
  static readonly layer = Layer.effect(
    Queue,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const networks = yield* Networks
      const baseUrl = yield* PublicUrl
      const scheduler = yield* Scheduler
      const seats = QueueSeats.make(sql)
      const moves = QueueMoves.make(sql, PostShape.make(networks.all), baseUrl)
      const viewPage = QueueView.make(sql, seats, baseUrl)
      const connected = SqlSchema.findAll({
        Request: Schema.String,
        Result: Schema.Struct({ id: Schema.String }),
        execute: (workspaceId) => sql`
              SELECT id FROM accounts WHERE workspace_id = ${workspaceId} AND status <> 'disconnected' ORDER BY id`
      })
      const now = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

      /** The accounts a call is about: the one named (404 when not the workspace's), or every connected one. */
      const accountsOf = (workspaceId: string, accountId: string | undefined) =>
        accountId === undefined
          ? Effect.map(dieOnBadRow(connected(workspaceId)), (rows) => rows.map((row) => row.id))
          : Effect.flatMap(
            sql`SELECT 1 AS one FROM accounts WHERE id = ${accountId} AND workspace_id = ${workspaceId}`,
            (rows) => rows.length === 0 ? Effect.fail(new AccountNotFound({ accountId })) : Effect.succeed([accountId])
          )

      /** A post and the time the queue gives it. */
      type Placed = { readonly post: QueueMoves.Locked; readonly at: Date }

      const view = Effect.fn("Queue.view")(function*(workspaceId: string, input: ViewInput) {
        const accountIds = yield* accountsOf(workspaceId, input.accountId)
        const from = input.from ?? (yield* now)
        return yield* viewPage(workspaceId, accountIds, { from, limit: input.limit, cursor: input.cursor })
      })

      /**
       * Runs a rearrangement of the queue in one transaction: `seat` frees and takes the seats and answers
       * where each post goes; each post whose time changed is then rescheduled, and handed to the engine
       * once the transaction commits.
       */
      const rearrange = <E>(workspaceId: string, seat: Effect.Effect<ReadonlyArray<Placed>, E>) =>
        Effect.gen(function*() {
          const { placed, rescheduled } = yield* sql.withTransaction(Effect.gen(function*() {
            const placed = yield* seat
            const changed = placed.filter(({ at, post }) => at.getTime() !== post.at!.getTime())
            const rescheduled = yield* Effect.forEach(changed, ({ at, post }) => moves.reschedule(workspaceId, post.id, at))
            return { placed, rescheduled }
          }))
          yield* QueueMoves.handOver(scheduler, rescheduled)
          return placed
        })

      /** What a shuffle or rebuild answers: the posts it moved, from where to where, and how many stayed. */
      const report = (placed: ReadonlyArray<Placed>): Moves => {
        const moved = placed.filter(({ at, post }) => at.getTime() !== post.at!.getTime())
        return {
          moved: moved.map(({ at, post }) => ({ postId: post.id, from: post.at!.toISOString(), to: at.toISOString() })),
          unchanged: placed.length - moved.length
        }
      }

      /** Seats each post at its place; their old seats are already free. */
      const seatAll = (workspaceId: string, placed: ReadonlyArray<Placed>) =>
        Effect.as(
          Effect.forEach(placed, ({ at, post }) => seats.seat(workspaceId, post.id, post.accountIds, at), { discard: true }),
          placed
        )

      const shuffle = Effect.fn("Queue.shuffle")(function*(workspaceId: string, accountId?: string) {
        yield* accountsOf(workspaceId, accountId)
        const placed = yield* rearrange(workspaceId, Effect.gen(function*() {
          const queued = yield* moves.lockQueue(workspaceId, accountId, yield* now)
          yield* seats.lock(queued.flatMap((post) => post.accountIds))
          const groups = new Map<string, Array<QueueMoves.Locked>>()
          for (const post of queued) {
            const key = QueueMoves.accountsKey(post)
            groups.set(key, [...groups.get(key) ?? [], post])
          }
          const placed: Array<Placed> = []
          for (const group of groups.values()) {
            const times = group.map((post) => post.at!)
            let order = times
            // A group of two or more always changes, so a shuffle is never a silent no-op; among the orders
            // that differ, each is as likely.
            while (group.length > 1 && order.every((at, index) => at.getTime() === times[index]!.getTime())) {
              order = yield* Random.shuffle(times)
            }
            group.forEach((post, index) => placed.push({ post, at: order[index]! }))
          }
          // Every seat of the groups is freed before any is taken again: the times only trade places.
          for (const { post } of placed) yield* seats.release(post.id)
          return yield* seatAll(workspaceId, placed)
        }))
        return report(placed)
      })

      const rebuild = Effect.fn("Queue.rebuild")(function*(workspaceId: string, accountId?: string) {
        yield* accountsOf(workspaceId, accountId)
        const placed = yield* rearrange(workspaceId, Effect.gen(function*() {
          const from = yield* now
          const queued = yield* moves.lockQueue(workspaceId, accountId, from)
          yield* seats.lock(queued.flatMap((post) => post.accountIds))
          for (const post of queued) yield* seats.release(post.id)
          const placed: Array<Placed> = []
          // In queue order, each takes the earliest slot still free: the order is kept, the gaps closed.
          for (const post of queued) {
            const found = yield* seats.earliestFree(yield* seats.plan(workspaceId, post.accountIds), from)
            if (!("at" in found)) {
              return yield* new PostConflict({ message: `Post ${post.id} has no queue slot to go to: ${found.message}; nothing was moved` })
            }
            yield* seats.seat(workspaceId, post.id, post.accountIds, found.at)
            placed.push({ post, at: found.at })
          }
          return placed
        }))
        return report(placed)
      })

      /**
       * Locks the named posts, then their accounts, and checks each is in the queue and can still move;
       * answers them in the order named.
       */
      const lockQueued = (workspaceId: string, postIds: ReadonlyArray<string>, at: Date) =>
        Effect.gen(function*() {
          const locked = yield* moves.lockPosts(workspaceId, postIds)
          const posts: Array<QueueMoves.Locked> = []
          for (const postId of postIds) {
            const post = locked.find((entry) => entry.id === postId)
            if (post === undefined) return yield* new PostNotFound({ postId })
            if (!QueueMoves.inQueue(post, at)) {
              return yield* new PostConflict({
                message: post.queued
                  ? `Post ${postId} is ${post.status.replace("_", " ")} and no longer waiting in the queue; it cannot move`
                  : `Post ${postId} is not in the queue; PATCH /api/v1/posts/${postId} with scheduledAt to change its time, or queued: true to queue it`
              })
            }
            posts.push(post)
          }
          yield* seats.lock(posts.flatMap((post) => post.accountIds))
          return posts
        })

      /** A problem naming `field` when `at` is not a slot of every account of the post; undefined when it is. */
      const slotProblem = (workspaceId: string, post: QueueMoves.Locked, at: Date, field: string) =>
        Effect.map(seats.plan(workspaceId, post.accountIds), (plan) =>
          QueueSeats.isSlotForAll(plan, at) ? undefined : {
            field,
            message: `${at.toISOString()} is not a queue slot of every account of post ${post.id} ` +
              `(${post.accountIds.join(", ")}); GET /api/v1/queue lists the slots`
          })

      /** A conflict naming the post that holds a seat of these accounts at `at`, other than `except`. */
      const taken = (accountIds: ReadonlyArray<string>, at: Date, except: ReadonlyArray<string>) =>
        Effect.flatMap(moves.holder(accountIds, at, except), (holder) =>
          Option.isNone(holder) ? Effect.void : Effect.fail(
            new PostConflict({
              message: `The slot at ${at.toISOString()} of account ${holder.value.accountId} is taken by post ${holder.value.postId}; ` +
                "swap the two (POST /api/v1/queue/swap) or pick a free slot"
            })
          ))

      const move = Effect.fn("Queue.move")(function*(workspaceId: string, postId: string, at: string) {
        const target = new Date(at)
        if (!/(Z|[+-]\d{2}:\d{2})$/.test(at) || Number.isNaN(target.getTime())) {
          return yield* new PostInvalid({ problems: [{ field: "at", message: `at "${at}" is not an ISO 8601 time with a zone` }] })
        }
        yield* rearrange(workspaceId, Effect.gen(function*() {
          const current = yield* now
          if (target.getTime() <= current.getTime()) {
            return yield* new PostInvalid({ problems: [{ field: "at", message: `at ${target.toISOString()} is past; pick an upcoming slot` }] })
          }
          const [post] = yield* lockQueued(workspaceId, [postId], current)
          const problem = yield* slotProblem(workspaceId, post!, target, "at")
          if (problem !== undefined) return yield* new PostInvalid({ problems: [problem] })
          yield* taken(post!.accountIds, target, [postId])
          yield* seats.release(postId)
          return yield* seatAll(workspaceId, [{ post: post!, at: target }])
        }))
        return yield* moves.read(workspaceId, postId)
      })

      const swap = Effect.fn("Queue.swap")(function*(workspaceId: string, postIds: readonly [string, string]) {
        if (postIds[0] === postIds[1]) {
          return yield* new PostInvalid({ problems: [{ field: "postIds", message: "Swapping needs two different posts" }] })
        }
        yield* rearrange(workspaceId, Effect.gen(function*() {
          const [first, second] = yield* lockQueued(workspaceId, postIds, yield* now)
          // Each takes the other's time: a slot of all its accounts, free for them but for the two posts.
          const problems = [
            yield* slotProblem(workspaceId, first!, second!.at!, "postIds.0"),
            yield* slotProblem(workspaceId, second!, first!.at!, "postIds.1")
          ].filter((problem) => problem !== undefined)
          if (problems.length > 0) return yield* new PostInvalid({ problems })
          yield* taken(first!.accountIds, second!.at!, postIds)
          yield* taken(second!.accountIds, first!.at!, postIds)
          yield* seats.release(first!.id)
          yield* seats.release(second!.id)
          return yield* seatAll(workspaceId, [{ post: first!, at: second!.at! }, { post: second!, at: first!.at! }])
        }))
        return yield* Effect.forEach(postIds, (postId) => moves.read(workspaceId, postId))
      })

      return Queue.of(DieOnSql.service({ view, shuffle, move, swap, rebuild }))
    })
  )
}
