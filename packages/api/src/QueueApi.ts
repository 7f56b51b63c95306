import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Bounded, QueueSchedule } from "@herald/domain"
import { ConflictResponse, ForbiddenResponse, InvalidResponse, NotFoundResponse } from "./ApiError.ts"
import { cursor, Data, Page } from "./Envelope.ts"
import * as EmptyBody from "./internal/emptyBody.ts"
import * as QueryInteger from "./internal/queryInteger.ts"
import type * as PostsApi from "./PostsApi.ts"

/** `PUT` body: the whole weekly schedule; each slot is checked and a bad one named (`slots.2.time`). */
export const PutSchedule = Schema.Struct({
  slots: Bounded.array(Schema.Struct({
    day: Bounded.Word.annotate({ description: "A weekday: `mon`, `tue`, `wed`, `thu`, `fri`, `sat` or `sun`" }),
    time: Bounded.Word.annotate({ description: "A wall-clock time `HH:MM` (24-hour) in the workspace's time zone" })
  }), Bounded.counts.slots, "slots").annotate({ description: "The weekly slots; no slot twice. An empty list clears the schedule" })
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

const params = { id: Bounded.Id }

const accountId = Bounded.Id.annotate({ description: "Only this account's queue; every connected account's when absent" })

/** `POST /queue/shuffle` and `/queue/rebuild`: the whole queue, or one account's. */
export const QueueScope = Schema.Struct({ accountId: Schema.optionalKey(accountId) })

/** `POST /queue/move`. */
export const MoveQueued = Schema.Struct({
  postId: Bounded.Id.annotate({ description: "A queued post (scheduled or awaiting approval, its time to come)" }),
  at: Bounded.Word.annotate({
    description: "Its new time (ISO 8601 with a zone): an upcoming slot of every account of the post, free for each"
  })
})

/** `POST /queue/swap`. */
export const SwapQueued = Schema.Struct({
  postIds: Schema.Tuple([Bounded.Id, Bounded.Id]).annotate({
    description: "Two queued posts that trade times; each time must be a slot of every account of the other post"
  })
})

/** One post moved by a shuffle or a rebuild. */
export class QueueMove extends Schema.Class<QueueMove>("QueueMove")({
  postId: Schema.String,
  from: Schema.String.annotate({ description: "Its time before" }),
  to: Schema.String.annotate({ description: "Its time now" })
}) {}

/** What a shuffle or a rebuild did. */
export class QueueMoves extends Schema.Class<QueueMoves>("QueueMoves")({
  moved: Schema.Array(QueueMove).annotate({ description: "The posts that changed time, each a new version with post.rescheduled" }),
  unchanged: Schema.Int.annotate({ description: "How many queued posts kept their time" })
}) {}

/** One place of the queue view, with the full post seated there (`schemas.post`). */
export const QueueSeat = (post: PostsApi.Schemas["post"]) =>
  Schema.Struct({
    at: Schema.String.annotate({ description: "The slot's instant (ISO 8601, UTC)" }),
    accountId: Schema.String,
    post: Schema.NullOr(post).annotate({ description: "The queued post seated at this instant for this account; null for a free slot" }),
    inSchedule: Schema.Boolean.annotate({
      description: "False when the account's schedule no longer has this slot (it changed since the post was queued); " +
        "POST /api/v1/queue/rebuild re-seats such posts"
    })
  }).annotate({ identifier: "QueueSeat" })

/** The queue group for the installed networks' post schema (`PostsApi.schemas(shape)`). */
export const make = (schemas: PostsApi.Schemas) => HttpApiGroup.make("queue").add(
  HttpApiEndpoint.get("view", "/queue", {
    query: {
      accountId: Schema.optional(accountId),
      from: Schema.optional(Bounded.Word.annotate({ description: "Slots at or after this time (ISO 8601 with a zone); now when absent" })),
      limit: Schema.optional(QueryInteger.limit),
      cursor: Schema.optional(cursor)
    },
    success: Page(QueueSeat(schemas.post)),
    error: [InvalidResponse, NotFoundResponse]
  }).annotate(
    OpenApi.Summary,
    "Upcoming queue slots by time then account, each with the queued post seated there or none"
  ),
  HttpApiEndpoint.post("shuffle", "/queue/shuffle", {
    payload: EmptyBody.orEmpty(QueueScope),
    success: Data(QueueMoves),
    error: [ForbiddenResponse, NotFoundResponse]
  }).annotate(
    OpenApi.Summary,
    "Shuffle the queue: the queued posts that go to the same accounts trade their times at random (owners, admins and workspace keys)"
  ),
  HttpApiEndpoint.post("move", "/queue/move", {
    payload: MoveQueued,
    success: Data(schemas.post),
    error: [ForbiddenResponse, InvalidResponse, NotFoundResponse, ConflictResponse]
  }).annotate(OpenApi.Summary, "Move a queued post to another free slot (owners, admins and workspace keys)"),
  HttpApiEndpoint.post("swap", "/queue/swap", {
    payload: SwapQueued,
    success: Data(Schema.Array(schemas.post)),
    error: [ForbiddenResponse, InvalidResponse, NotFoundResponse, ConflictResponse]
  }).annotate(OpenApi.Summary, "Swap the times of two queued posts (owners, admins and workspace keys)"),
  HttpApiEndpoint.post("rebuild", "/queue/rebuild", {
    payload: EmptyBody.orEmpty(QueueScope),
    success: Data(QueueMoves),
    error: [ForbiddenResponse, NotFoundResponse, ConflictResponse]
  }).annotate(
    OpenApi.Summary,
    "Re-seat the queued posts, in their order, at the earliest free slots of the schedules as they are now (owners, admins and workspace keys)"
  ),
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
  description: "The posting queue: its weekly schedule (wall-clock slots in the workspace's time zone, optionally " +
    "overridden per account; a slot missing on a spring-forward day is skipped, one repeated on a fall-back day is " +
    "used once, at its first occurrence), the view of upcoming slots with their posts, and the moves that change " +
    "which queued post goes when. Changing the schedule moves no post; a rebuild does."
}))

export type QueueApi = ReturnType<typeof make>

const zoned = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/

/** Where a page of the view starts after: the last item's instant and account. */
export interface ViewPosition {
  readonly at: Date
  readonly accountId: string
}

/** The `nextCursor` of a view page, opaque to clients: the last item's instant and account. */
export const encodeViewCursor = (position: ViewPosition) =>
  Buffer.from(`${position.at.toISOString()}|${position.accountId}`).toString("base64url")

/**
 * `GET /api/v1/queue` query parameters (also the MCP `get_queue` tool's), read: `from` a time with a zone,
 * `limit` 1 to 100 (20 by default), `cursor` a `nextCursor` given out. Bad values are problems naming the
 * parameter, answered as `invalid`.
 */
export const parseViewQuery = (query: {
  readonly accountId?: string | undefined
  readonly from?: string | undefined
  readonly limit?: string | undefined
  readonly cursor?: string | undefined
}) => {
  const problems: Array<{ readonly field: string; readonly message: string }> = []
  const from = query.from === undefined ? undefined : new Date(query.from)
  if (query.from !== undefined && (!zoned.test(query.from) || Number.isNaN(from!.getTime()))) {
    problems.push({ field: "from", message: `from "${query.from}" is not an ISO 8601 time with a zone, e.g. 2026-12-01T09:00:00Z` })
  }
  const limit = query.limit === undefined ? 20 : /^\d+$/.test(query.limit) ? Number(query.limit) : Number.NaN
  if (!(limit >= 1 && limit <= 100)) problems.push({ field: "limit", message: `limit "${query.limit}" must be a whole number from 1 to 100` })
  let position: ViewPosition | undefined
  if (query.cursor !== undefined) {
    const text = Buffer.from(query.cursor, "base64url").toString("utf8")
    const separator = text.indexOf("|")
    const at = new Date(text.slice(0, separator))
    if (separator < 0 || Number.isNaN(at.getTime()) || separator === text.length - 1) {
      problems.push({ field: "cursor", message: "cursor is not one this API gave out" })
    } else position = { at, accountId: text.slice(separator + 1) }
  }
  if (problems.length > 0) return { problems }
  return {
    limit,
    ...(query.accountId === undefined ? {} : { accountId: query.accountId }),
    ...(from === undefined ? {} : { from }),
    ...(position === undefined ? {} : { cursor: position })
  }
}
