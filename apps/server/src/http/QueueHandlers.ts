import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Authorization, HeraldApi, QueueApi } from "@herald/api"
import { QueueSchedules } from "@herald/core"
import { manager } from "../internal/roles.ts"
import { domainError } from "./ErrorRendering.ts"

const answer = (view: QueueSchedules.View) => ({ data: new QueueApi.QueueScheduleView(view) })

// The queue's posting schedule (docs/queue.md): anyone in the workspace reads it; owners, admins and workspace
// keys change it, as for the workspace's other settings.

export const layer = (api: HeraldApi.HeraldApi) => HttpApiBuilder.group(
  api,
  "queue",
  Effect.fnUntraced(function*(handlers) {
    const schedules = yield* QueueSchedules.QueueSchedules
    const workspaceId = Effect.map(Authorization.CurrentPrincipal, (principal) => principal.workspaceId)
    return handlers
      .handle("schedule", () =>
        Effect.flatMap(workspaceId, schedules.workspace).pipe(
          Effect.map(answer),
          Effect.orDie
        ))
      .handle("setSchedule", ({ payload }) =>
        Effect.gen(function*() {
          const principal = yield* manager("The queue's schedule")
          return answer(yield* schedules.setWorkspace(principal.workspaceId, payload))
        }).pipe(
          Effect.catchTag("QueueScheduleInvalid", (error) => domainError(error)),
          Effect.catchTags({ WorkspaceNotFound: Effect.die, SqlError: Effect.die })
        ))
      .handle("accountSchedule", ({ params }) =>
        Effect.flatMap(workspaceId, (id) => schedules.account(id, params.id)).pipe(
          Effect.map(answer),
          Effect.catchTag("AccountNotFound", (error) => domainError(error)),
          Effect.catchTags({ WorkspaceNotFound: Effect.die, SqlError: Effect.die })
        ))
      .handle("setAccountSchedule", ({ params, payload }) =>
        Effect.gen(function*() {
          const principal = yield* manager("The queue's schedule")
          return answer(yield* schedules.setAccount(principal.workspaceId, params.id, payload))
        }).pipe(
          Effect.catchTags({
            QueueScheduleInvalid: (error) => domainError(error),
            AccountNotFound: (error) => domainError(error)
          }),
          Effect.catchTags({ WorkspaceNotFound: Effect.die, SqlError: Effect.die })
        ))
      .handle("clearAccountSchedule", ({ params }) =>
        Effect.gen(function*() {
          const principal = yield* manager("The queue's schedule")
          return answer(yield* schedules.clearAccount(principal.workspaceId, params.id))
        }).pipe(
          Effect.catchTag("AccountNotFound", (error) => domainError(error)),
          Effect.catchTags({ WorkspaceNotFound: Effect.die, SqlError: Effect.die })
        ))
  })
)
