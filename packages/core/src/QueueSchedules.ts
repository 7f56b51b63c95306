import { Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, type SqlError, SqlSchema } from "effect/sql"
import { QueueSchedule } from "@herald/domain"
import * as DieOnSql from "./internal/dieOnSql.ts"
import { dieOnBadRow } from "./internal/rows.ts"
import { AccountNotFound } from "./Connections.ts"
import { WorkspaceNotFound } from "./Workspaces.ts"

/** A schedule the queue refuses; `problems` name the fields (`slots.2.time`), as `details` of a `400 invalid`. */
export class QueueScheduleInvalid extends Schema.TaggedError<QueueScheduleInvalid>()("QueueScheduleInvalid", {
  problems: Schema.Array(Schema.Struct({ field: Schema.String, message: Schema.String }))
}) {
  override get message() {
    return this.problems.map((problem) => problem.message).join("; ")
  }
}

/** A schedule as answered: its slots, the workspace's time zone, and whose it is. */
export interface View {
  readonly timeZone: string
  readonly slots: ReadonlyArray<QueueSchedule.Slot>
  /** The account it was asked for, or null for the workspace's. */
  readonly accountId: string | null
  /** An account's answer is the workspace's schedule, as the account has none of its own. */
  readonly inherited: boolean
}

export class QueueSchedules extends Context.Service<QueueSchedules, {
  workspace(workspaceId: string): Effect.Effect<View>
  setWorkspace(workspaceId: string, input: QueueSchedule.ScheduleInput): Effect.Effect<View, QueueScheduleInvalid>
  account(workspaceId: string, accountId: string): Effect.Effect<View, AccountNotFound>
  setAccount(
    workspaceId: string,
    accountId: string,
    input: QueueSchedule.ScheduleInput
  ): Effect.Effect<View, AccountNotFound | QueueScheduleInvalid>
  /** Drops the account's own schedule: it follows the workspace's again. */
  clearAccount(workspaceId: string, accountId: string): Effect.Effect<View, AccountNotFound>
}>()("@herald/core/QueueSchedules") {
  static readonly layer = Layer.effect(
    QueueSchedules,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const timeZoneOf = SqlSchema.findOneOption({
        Request: Schema.String,
        Result: Schema.Struct({ timeZone: Schema.String }),
        execute: (workspaceId) => sql`SELECT time_zone FROM workspaces WHERE id = ${workspaceId}`
      })
      // Only Herald writes the column, always a checked schedule: a row unlike it dies.
      const slotsOf = SqlSchema.findOneOption({
        Request: Schema.Struct({ workspaceId: Schema.String, scope: Schema.String }),
        Result: Schema.Struct({ slots: QueueSchedule.Schedule.fields.slots }),
        execute: ({ scope, workspaceId }) => sql`SELECT slots FROM queue_schedules WHERE workspace_id = ${workspaceId} AND scope = ${scope}`
      })

      // A schedule is asked for by a caller of its workspace, whose principal was read from it: the workspace
      // missing is a bug to report (a 500 with a request id), never an answer.
      const timeZone = (workspaceId: string) =>
        Effect.flatMap(
          dieOnBadRow(timeZoneOf(workspaceId)),
          Option.match({ onNone: () => Effect.die(new WorkspaceNotFound({ workspaceId })), onSome: (row) => Effect.succeed(row.timeZone) })
        )

      const stored = (workspaceId: string, scope: string) =>
        Effect.map(dieOnBadRow(slotsOf({ workspaceId, scope })), Option.match({ onNone: () => undefined, onSome: (row) => row.slots }))

      const checkAccount = (workspaceId: string, accountId: string) =>
        Effect.flatMap(
          sql`SELECT 1 AS one FROM accounts WHERE id = ${accountId} AND workspace_id = ${workspaceId}`,
          (rows) => rows.length === 0 ? Effect.fail(new AccountNotFound({ accountId })) : Effect.void
        )

      const checked = (input: QueueSchedule.ScheduleInput) => {
        const result = QueueSchedule.check(input)
        return result._tag === "Invalid"
          ? Effect.fail(new QueueScheduleInvalid({ problems: result.problems }))
          : Effect.succeed(result.schedule)
      }

      const save = (workspaceId: string, accountId: string | null, slots: ReadonlyArray<QueueSchedule.Slot>) =>
        sql`
          INSERT INTO queue_schedules (workspace_id, scope, account_id, slots)
          VALUES (${workspaceId}, ${accountId ?? ""}, ${accountId}, ${JSON.stringify(slots)}::jsonb)
          ON CONFLICT (workspace_id, scope) DO UPDATE SET slots = excluded.slots, updated_at = now()`

      const workspace = Effect.fn("QueueSchedules.workspace")(function*(workspaceId: string) {
        const zone = yield* timeZone(workspaceId)
        const slots = yield* stored(workspaceId, "")
        return { timeZone: zone, slots: slots ?? [], accountId: null, inherited: false }
      })

      const setWorkspace = Effect.fn("QueueSchedules.setWorkspace")(function*(workspaceId: string, input: QueueSchedule.ScheduleInput) {
        const schedule = yield* checked(input)
        const zone = yield* timeZone(workspaceId)
        yield* save(workspaceId, null, schedule.slots)
        return { timeZone: zone, slots: schedule.slots, accountId: null, inherited: false }
      })

      const account = Effect.fn("QueueSchedules.account")(function*(workspaceId: string, accountId: string) {
        const zone = yield* timeZone(workspaceId)
        yield* checkAccount(workspaceId, accountId)
        const own = yield* stored(workspaceId, accountId)
        if (own !== undefined) return { timeZone: zone, slots: own, accountId, inherited: false }
        const shared = yield* stored(workspaceId, "")
        return { timeZone: zone, slots: shared ?? [], accountId, inherited: true }
      })

      const setAccount = Effect.fn("QueueSchedules.setAccount")(
        function*(workspaceId: string, accountId: string, input: QueueSchedule.ScheduleInput) {
          const zone = yield* timeZone(workspaceId)
          yield* checkAccount(workspaceId, accountId)
          const schedule = yield* checked(input)
          yield* save(workspaceId, accountId, schedule.slots)
          return { timeZone: zone, slots: schedule.slots, accountId, inherited: false }
        }
      )

      const clearAccount = Effect.fn("QueueSchedules.clearAccount")(function*(workspaceId: string, accountId: string) {
        yield* checkAccount(workspaceId, accountId)
        yield* sql`DELETE FROM queue_schedules WHERE workspace_id = ${workspaceId} AND scope = ${accountId}`
        return yield* account(workspaceId, accountId)
      })

      return QueueSchedules.of(DieOnSql.service({ workspace, setWorkspace, account, setAccount, clearAccount }))
    })
  )
}
