import { Effect, Schema } from "effect"
import { type SqlClient, SqlSchema } from "effect/sql"
import type { Post } from "@herald/domain"
import { QueueSchedule } from "@herald/domain"
import { hydrate, postColumns, type PostRow } from "./postRows.ts"
import { isSlot, type Seats } from "./queueSeats.ts"
import { dieOnBadRow, Timestamp } from "./rows.ts"

/** Where a page of the queue view starts after: the last item's instant and account. */
export interface Position {
  readonly at: Date
  readonly accountId: string
}

/** One place in the queue: an account's slot instant, or the instant a post is seated at. */
export interface Seat {
  readonly at: string
  readonly accountId: string
  readonly post: Post.Post | null
  /** False for a post seated at an instant that is no longer a slot of the account (its schedule changed). */
  readonly inSchedule: boolean
}

/**
 * Accounts' ids compare by code point, as `COLLATE "C"` orders them in SQL: one order for the slots made here
 * and the seats read there, whatever the database's locale.
 */
const before = (left: Position, right: Position) =>
  left.at.getTime() < right.at.getTime() || (left.at.getTime() === right.at.getTime() && left.accountId < right.accountId)

/** A seat taken (a `queue_seats` row): the account's instant and the post holding it. */
const SeatRow = Schema.Struct({ accountId: Schema.String, slotAt: Timestamp, postId: Schema.String })

/**
 * A page of the queue view: the accounts' slot instants and their seats merged, ordered by (instant,
 * account), after `cursor` or from `from`. Each source is read `limit + 1` places ahead, so the first
 * `limit + 1` of the merge are exact and the extra one says whether there is a next page.
 */
export const make = (sql: SqlClient.SqlClient, seats: Seats, baseUrl: string) => {
  const seatsFrom = SqlSchema.findAll({
    Request: Schema.Struct({
      workspaceId: Schema.String,
      accountIds: Schema.Array(Schema.String),
      start: Schema.Date,
      cursor: Schema.UndefinedOr(Schema.Struct({ at: Schema.Date, accountId: Schema.String })),
      limit: Schema.Number
    }),
    Result: SeatRow,
    execute: ({ accountIds, cursor, limit, start, workspaceId }) => sql`
      SELECT account_id, slot_at, post_id FROM queue_seats
      WHERE workspace_id = ${workspaceId} AND ${sql.in("account_id", accountIds)}
      ${
      cursor === undefined
        ? sql`AND slot_at >= ${start}`
        : sql`AND (slot_at, account_id COLLATE "C") > (${cursor.at}, ${cursor.accountId} COLLATE "C")`
    }
      ORDER BY slot_at, account_id COLLATE "C" LIMIT ${limit + 1}`
  })

  return (
    workspaceId: string,
    accountIds: ReadonlyArray<string>,
    input: { readonly from: Date; readonly limit: number; readonly cursor: Position | undefined }
  ) =>
  Effect.gen(function*() {
    if (accountIds.length === 0) return { seats: [], next: null }
    const plan = yield* seats.plan(workspaceId, accountIds)
    const { cursor, limit } = input
    const start = cursor?.at ?? input.from
    const after = (place: Position) => cursor === undefined || before(cursor, place)

    const places = new Map<string, Position & { postId?: string }>()
    const keyOf = (place: Position) => `${place.at.getTime()}|${place.accountId}`
    for (const account of plan.accounts) {
      // One more than a page past the cursor's own instant, which the cursor may leave out.
      for (const at of QueueSchedule.upcoming(account.schedule, plan.timeZone, start, limit + 2)) {
        const place = { at, accountId: account.accountId }
        if (after(place)) places.set(keyOf(place), place)
      }
    }
    const seated = yield* dieOnBadRow(seatsFrom({ workspaceId, accountIds, start, cursor, limit }))
    for (const row of seated) {
      const place = { at: new Date(row.slotAt), accountId: row.accountId, postId: row.postId }
      places.set(keyOf(place), place)
    }

    const ordered = [...places.values()].sort((left, right) => before(left, right) ? -1 : before(right, left) ? 1 : 0)
    const shown = ordered.slice(0, limit)
    const postIds = [...new Set(shown.flatMap((place) => place.postId === undefined ? [] : [place.postId]))]
    const posts = postIds.length === 0 ? [] : hydrate(
      yield* sql<PostRow>`SELECT ${sql.literal(postColumns)} FROM posts WHERE ${sql.in("id", postIds)}`,
      baseUrl
    )
    const last = shown.at(-1)
    return {
      seats: shown.map((place): Seat => {
        const account = plan.accounts.find((entry) => entry.accountId === place.accountId)!
        return {
          at: place.at.toISOString(),
          accountId: place.accountId,
          post: posts.find((post) => post.id === place.postId) ?? null,
          inSchedule: isSlot(account.schedule, plan.timeZone, place.at)
        }
      }),
      next: ordered.length > limit && last !== undefined ? { at: last.at, accountId: last.accountId } : null
    }
  })
}
