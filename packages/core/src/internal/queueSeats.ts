import { Effect, Option, Schema } from "effect"
import { type SqlClient, type SqlError, SqlSchema } from "effect/sql"
import { QueueSchedule } from "@herald/domain"
import type { Problem } from "./postRules.ts"
import { dieOnBadRow, Timestamp } from "./rows.ts"

/** An account's weekly slots: its own schedule, or the workspace's it inherits. */
interface AccountSlots {
  readonly accountId: string
  readonly schedule: QueueSchedule.Schedule
  readonly own: boolean
}

/** What seating a post needs: the workspace's time zone and each of the post's accounts' slots. */
export interface Plan {
  readonly timeZone: string
  readonly accounts: ReadonlyArray<AccountSlots>
}

// Slots are looked at this many at a time, up to the horizon: 40 batches of 256 is about 10,000 slots (three
// years of fifteen slots a week) before the queue is called full.
const batchSize = 256
const horizonBatches = 40

/** A `queue_schedules` row: whose it is (an account's id, or "" for the workspace's) and its slots (jsonb). */
const ScheduleRow = Schema.Struct({ scope: Schema.String, slots: QueueSchedule.Schedule.fields.slots })

/** An instant a seat is taken at. */
const TakenRow = Schema.Struct({ slotAt: Timestamp })

/** Which accounts' seats are asked about, and whose (`except`'s) to leave out. */
const SeatsOf = { accountIds: Schema.Array(Schema.String), except: Schema.UndefinedOr(Schema.String) }

/** Whether `at` is a slot instant of the schedule: its first occurrence, on a day it exists. */
export const isSlot = (schedule: QueueSchedule.Schedule, timeZone: string, at: Date): boolean =>
  QueueSchedule.upcoming(schedule, timeZone, at, 1)[0]?.getTime() === at.getTime()

/** Whether `at` is a slot of every account of the plan. */
export const isSlotForAll = (plan: Plan, at: Date): boolean =>
  plan.accounts.every((account) => isSlot(account.schedule, plan.timeZone, at))

/**
 * The slot instants of every account of the plan, in order, from `from` on: the first account's slots that are
 * also every other's. `scanned` is where the first account's slots looked at end (to go on from); undefined
 * when it has none.
 */
const commonSlots = (plan: Plan, from: Date, count: number) => {
  const [first, ...others] = plan.accounts
  if (first === undefined) return { slots: [], scanned: undefined }
  const raw = QueueSchedule.upcoming(first.schedule, plan.timeZone, from, count)
  const same = others.every((other) => JSON.stringify(other.schedule.slots) === JSON.stringify(first.schedule.slots))
  return {
    slots: same ? raw : raw.filter((at) => others.every((other) => isSlot(other.schedule, plan.timeZone, at))),
    scanned: raw.at(-1)
  }
}

/**
 * The unique violation of the seats' primary key: another transaction took the slot first. The driver
 * classifies it (`reason`); "unknown" is its name for a violation whose constraint the server did not say.
 */
export const isSeatTaken = (error: SqlError.SqlError): boolean =>
  error.reason._tag === "UniqueViolation" &&
  (error.reason.constraint === "queue_seats_pkey" || error.reason.constraint === "unknown")

/**
 * The queue's seats: a queued post holds one per account at its slot's instant; the primary key keeps a slot
 * to one post per account. Every writer locks the accounts first (`lock`), so writers of one account take
 * turns and a free slot read stays free until the transaction commits; the key is what holds if one did not.
 */
export const make = (sql: SqlClient.SqlClient) => {
  const timeZoneOf = SqlSchema.findOneOption({
    Request: Schema.String,
    Result: Schema.Struct({ timeZone: Schema.String }),
    execute: (workspaceId) => sql`SELECT time_zone FROM workspaces WHERE id = ${workspaceId}`
  })
  const schedulesOf = SqlSchema.findAll({
    Request: Schema.Struct({ workspaceId: Schema.String, scopes: Schema.Array(Schema.String) }),
    Result: ScheduleRow,
    execute: ({ scopes, workspaceId }) => sql`
        SELECT scope, slots FROM queue_schedules WHERE workspace_id = ${workspaceId} AND ${sql.in("scope", scopes)}`
  })
  const takenBetween = SqlSchema.findAll({
    Request: Schema.Struct({ ...SeatsOf, first: Schema.Date, last: Schema.Date }),
    Result: TakenRow,
    execute: ({ accountIds, except, first, last }) => sql`
          SELECT DISTINCT slot_at FROM queue_seats
          WHERE ${sql.in("account_id", accountIds)} AND slot_at >= ${first} AND slot_at <= ${last}
          ${except === undefined ? sql`` : sql`AND post_id <> ${except}`}`
  })
  const takenFrom = SqlSchema.findAll({
    Request: Schema.Struct({ ...SeatsOf, from: Schema.Date }),
    Result: TakenRow,
    execute: ({ accountIds, except, from }) => sql`
          SELECT DISTINCT slot_at FROM queue_seats WHERE ${sql.in("account_id", accountIds)} AND slot_at >= ${from}
          ${except === undefined ? sql`` : sql`AND post_id <> ${except}`}`
  })
  const instants = (rows: ReadonlyArray<typeof TakenRow.Type>) => new Set(rows.map((row) => Date.parse(row.slotAt)))

  /** Each account's slots and the workspace's time zone. */
  const plan = (workspaceId: string, accountIds: ReadonlyArray<string>) =>
    Effect.gen(function*() {
      const workspace = yield* dieOnBadRow(timeZoneOf(workspaceId))
      const rows = yield* dieOnBadRow(schedulesOf({ workspaceId, scopes: ["", ...accountIds] }))
      const slotsOf = (scope: string) => {
        const row = rows.find((entry) => entry.scope === scope)
        return row === undefined ? undefined : { slots: row.slots }
      }
      const shared = slotsOf("") ?? { slots: [] }
      return {
        timeZone: Option.match(workspace, { onNone: () => "UTC", onSome: (row) => row.timeZone }),
        accounts: accountIds.map((accountId) => {
          const own = slotsOf(accountId)
          return { accountId, schedule: own ?? shared, own: own !== undefined }
        })
      } satisfies Plan
    })

  /** Takes the accounts' queue turn until the transaction ends (in one order, so two writers cannot deadlock). */
  const lock = (accountIds: ReadonlyArray<string>) =>
    sql`SELECT id FROM accounts WHERE ${sql.in("id", [...new Set(accountIds)].sort())} ORDER BY id FOR NO KEY UPDATE`

  /** The instants among `slots` where one of the accounts has a seat taken by a post other than `except`. */
  const taken = (accountIds: ReadonlyArray<string>, slots: ReadonlyArray<Date>, except: string | undefined) =>
    slots.length === 0
      ? Effect.succeed(new Set<number>())
      : Effect.map(dieOnBadRow(takenBetween({ accountIds, except, first: slots[0]!, last: slots.at(-1)! })), instants)

  /**
   * The earliest slot at or after `from` that is a slot of every account and free for each; a problem naming
   * `queued` when an account has no slots, the accounts share none, or every one is taken to the horizon.
   */
  const earliestFree = (plan: Plan, from: Date, except?: string) =>
    Effect.gen(function*() {
      const empty = plan.accounts.filter((account) => account.schedule.slots.length === 0)
      if (empty.length > 0) return noSlots(empty)
      const accountIds = plan.accounts.map((account) => account.accountId)
      // Every seat taken from `from` on, read once: the search then walks the slots in memory, so a create
      // costs one query however full the queue is.
      const busy = yield* Effect.map(dieOnBadRow(takenFrom({ accountIds, except, from })), instants)
      let cursor = from
      let common = 0
      for (let batch = 0; batch < horizonBatches; batch++) {
        const { scanned, slots } = commonSlots(plan, cursor, batchSize)
        if (scanned === undefined) break
        common += slots.length
        const free = slots.find((at) => !busy.has(at.getTime()))
        if (free !== undefined) return { at: free }
        cursor = new Date(scanned.getTime() + 1)
      }
      return {
        field: "queued",
        message: common === 0
          ? `Accounts ${accountIds.join(", ")} have no queue slot in common: give them the same slots, or queue a post for each`
          : `Every queue slot of ${accountIds.join(", ")} is taken for the next ${horizonBatches * batchSize} slots`
      } satisfies Problem
    })

  /** Whether `at` is free for every account (but for `except`'s own seats). */
  const isFree = (accountIds: ReadonlyArray<string>, at: Date, except: string | undefined) =>
    Effect.map(taken(accountIds, [at], except), (busy) => busy.size === 0)

  /** Gives the post a seat at `at` on each account. */
  const seat = (workspaceId: string, postId: string, accountIds: ReadonlyArray<string>, at: Date) => {
    const rows = accountIds.map((accountId) => ({ account_id: accountId, slot_at: at, post_id: postId, workspace_id: workspaceId }))
    return sql`INSERT INTO queue_seats ${sql.insert(rows as [typeof rows[number], ...Array<typeof rows[number]>])}`
  }

  /** Frees the post's seats: it left the queue, or is about to be seated again. */
  const release = (postId: string) => sql`DELETE FROM queue_seats WHERE post_id = ${postId}`

  return { plan, lock, earliestFree, isFree, seat, release }
}

export type Seats = ReturnType<typeof make>

/** The `invalid` problem of a queue without slots, saying where to set them. */
const noSlots = (empty: ReadonlyArray<AccountSlots>): Problem => ({
  field: "queued",
  message: empty.some((account) => !account.own)
    ? "The queue has no slots: set a weekly schedule first (PUT /api/v1/queue/schedule, or " +
      "PUT /api/v1/accounts/:id/queue-schedule for one account)"
    : `Account ${empty.map((account) => account.accountId).join(", ")} has a schedule without slots: set some ` +
      "(PUT /api/v1/accounts/:id/queue-schedule) or drop it to follow the workspace's (DELETE)"
})
