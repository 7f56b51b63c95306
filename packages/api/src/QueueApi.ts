import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { QueueSchedule } from "@herald/domain"
import { ForbiddenResponse, InvalidResponse, NotFoundResponse } from "./ApiError.ts"
import { Data } from "./Envelope.ts"

/** `PUT` body: the whole weekly schedule; each slot is checked and a bad one named (`slots.2.time`). */
export const PutSchedule = Schema.Struct({
  slots: Schema.Array(Schema.Struct({
    day: Schema.String.annotate({ description: "A weekday: `mon`, `tue`, `wed`, `thu`, `fri`, `sat` or `sun`" }),
    time: Schema.String.annotate({ description: "A wall-clock time `HH:MM` (24-hour) in the workspace's time zone" })
  })).annotate({ description: "The weekly slots; no slot twice. An empty list clears the schedule" })
})

/** A schedule as answered: sorted slots, the workspace's time zone they are read in, and whose they are. */
export class QueueScheduleView extends Schema.Class<QueueScheduleView>("QueueSchedule")({
  timeZone: Schema.String.annotate({ description: "The workspace's time zone the slots are wall-clock times in" }),
  slots: Schema.Array(QueueSchedule.Slot).annotate({ description: "The weekly slots, Monday first then by time" }),
  accountId: Schema.NullOr(Schema.String).annotate({
    description: "The account this schedule is for; null for the workspace's"
  }),
  inherited: Schema.Boolean.annotate({
    description: "True when the account has no schedule of its own and follows the workspace's"
  })
}) {}

const params = { id: Schema.String }

export class QueueApi extends HttpApiGroup.make("queue").add(
  HttpApiEndpoint.get("schedule", "/queue/schedule", {
    success: Data(QueueScheduleView)
  }).annotate(OpenApi.Summary, "The workspace's weekly posting schedule"),
  HttpApiEndpoint.put("setSchedule", "/queue/schedule", {
    payload: PutSchedule,
    success: Data(QueueScheduleView),
    error: [ForbiddenResponse, InvalidResponse]
  }).annotate(OpenApi.Summary, "Replace the workspace's weekly posting schedule (owners, admins and workspace keys)"),
  HttpApiEndpoint.get("accountSchedule", "/accounts/:id/queue-schedule", {
    params,
    success: Data(QueueScheduleView),
    error: NotFoundResponse
  }).annotate(OpenApi.Summary, "An account's posting schedule: its own, or the workspace's it inherits"),
  HttpApiEndpoint.put("setAccountSchedule", "/accounts/:id/queue-schedule", {
    params,
    payload: PutSchedule,
    success: Data(QueueScheduleView),
    error: [ForbiddenResponse, InvalidResponse, NotFoundResponse]
  }).annotate(OpenApi.Summary, "Give an account a posting schedule of its own (owners, admins and workspace keys)"),
  HttpApiEndpoint.delete("clearAccountSchedule", "/accounts/:id/queue-schedule", {
    params,
    success: Data(QueueScheduleView),
    error: [ForbiddenResponse, NotFoundResponse]
  }).annotate(OpenApi.Summary, "Drop an account's own schedule so it follows the workspace's again")
).annotateMerge(OpenApi.annotations({
  title: "Queue",
  description: "The posting queue's weekly schedule: wall-clock slots in the workspace's time zone, optionally " +
    "overridden per account. A slot missing on a spring-forward day is skipped; one repeated on a fall-back day is " +
    "used once, at its first occurrence."
})) {}
