import { Effect } from "effect"
import * as HandlerGroup from "./HandlerGroup.ts"
import { ApiError, Authorization, HeraldApi, QueueApi } from "@herald/api"
import { Queue, QueueSchedules } from "@herald/core"
import { manager } from "../internal/roles.ts"
import { answered } from "./ErrorRendering.ts"

const answer = (view: QueueSchedules.View) => ({ data: new QueueApi.QueueScheduleView(view) })

// The posting queue (docs/queue.md): anyone in the workspace reads its schedule and view; owners, admins and
// workspace keys change the schedule and move queued posts, as for the workspace's other settings.

export const layer = (api: HeraldApi.HeraldApi) => HandlerGroup.group(
  api,
  "queue",
  Effect.fnUntraced(function*(handlers) {
    const schedules = yield* QueueSchedules.QueueSchedules
    const queue = yield* Queue.Queue
    const workspaceId = Effect.map(Authorization.CurrentPrincipal, (principal) => principal.workspaceId)
    const mover = manager("manageQueue", "The queue")
    return handlers
      .handle("view", ({ query }) =>
        Effect.gen(function*() {
          const parsed = QueueApi.parseViewQuery(query)
          if ("problems" in parsed) {
            return yield* new ApiError.Invalid({
              message: parsed.problems.map((problem) => problem.message).join("; "),
              details: parsed.problems
            })
          }
          const page = yield* queue.view(yield* workspaceId, parsed)
          return { data: page.seats, nextCursor: page.next === null ? null : QueueApi.encodeViewCursor(page.next) }
        }).pipe(
          answered
        ))
      .handle("shuffle", ({ payload }) =>
        Effect.gen(function*() {
          const principal = yield* mover
          return { data: new QueueApi.QueueMoves(yield* queue.shuffle(principal.workspaceId, payload.accountId)) }
        }).pipe(
          answered
        ))
      .handle("move", ({ payload }) =>
        Effect.gen(function*() {
          const principal = yield* mover
          return { data: yield* queue.move(principal.workspaceId, payload.postId, payload.at) }
        }).pipe(
          answered
        ))
      .handle("swap", ({ payload }) =>
        Effect.gen(function*() {
          const principal = yield* mover
          return { data: yield* queue.swap(principal.workspaceId, payload.postIds) }
        }).pipe(
          answered
        ))
      .handle("rebuild", ({ payload }) =>
        Effect.gen(function*() {
          const principal = yield* mover
          return { data: new QueueApi.QueueMoves(yield* queue.rebuild(principal.workspaceId, payload.accountId)) }
        }).pipe(
          answered
        ))
      .handle("schedule", () =>
        Effect.flatMap(workspaceId, schedules.workspace).pipe(
          Effect.map(answer),
          Effect.orDie
        ))
      .handle("setSchedule", ({ payload }) =>
        Effect.gen(function*() {
          const principal = yield* manager("manageQueue", "The queue's schedule")
          return answer(yield* schedules.setWorkspace(principal.workspaceId, payload))
        }).pipe(
          answered
        ))
      .handle("accountSchedule", ({ params }) =>
        Effect.flatMap(workspaceId, (id) => schedules.account(id, params.id)).pipe(
          Effect.map(answer),
          answered
        ))
      .handle("setAccountSchedule", ({ params, payload }) =>
        Effect.gen(function*() {
          const principal = yield* manager("manageQueue", "The queue's schedule")
          return answer(yield* schedules.setAccount(principal.workspaceId, params.id, payload))
        }).pipe(
          answered
        ))
      .handle("clearAccountSchedule", ({ params }) =>
        Effect.gen(function*() {
          const principal = yield* manager("manageQueue", "The queue's schedule")
          return answer(yield* schedules.clearAccount(principal.workspaceId, params.id))
        }).pipe(
          answered
        ))
  })
)
