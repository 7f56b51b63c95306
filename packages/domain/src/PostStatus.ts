import type { TargetStatus } from "./Post.ts"
import type { EventKind } from "./Webhook.ts"

// A post's life as data (product.md, "Posts"): one table of the moves a post may make between statuses, the
// action that makes each and the event it emits where that is fixed, and pure functions that pick the next
// status. Core calls these instead of spelling statuses out; SQL takes the constants as values. The console
// bundles this module to offer a post's next actions (decision 0085), so it imports types only: no Effect at
// run time (test/PostStatus.test.ts checks it).

/** Every status, in a post's order of life; `Post.PostStatus`, the schema, is made from it. */
export const all = ["draft", "awaiting_approval", "scheduled", "publishing", "published", "partial", "failed"] as const

export type Status = typeof all[number]

export const draft = "draft" satisfies Status
export const awaiting_approval = "awaiting_approval" satisfies Status
export const scheduled = "scheduled" satisfies Status
export const publishing = "publishing" satisfies Status
export const published = "published" satisfies Status
export const partial = "partial" satisfies Status
export const failed = "failed" satisfies Status

/** The statuses a post changes in (PATCH): what is not yet going out. */
export const editable: ReadonlyArray<Status> = [draft, awaiting_approval, scheduled]
/** The statuses the publishing engine has a message for: waiting for their time, or going out. */
export const due: ReadonlyArray<Status> = [scheduled, publishing]
/** A post's outcome once every target has ended; only a retry moves it again. */
export const final: ReadonlyArray<Status> = [published, partial, failed]
/** The outcomes a retry sends out again (its failed targets). */
export const retryable: ReadonlyArray<Status> = [partial, failed]

export const isEditable = (status: Status) => editable.includes(status)
export const isDue = (status: Status) => due.includes(status)
export const isFinal = (status: Status) => final.includes(status)
/** Anything but a post going out may be deleted (what is out stays on the network). */
export const isDeletable = (status: Status) => status !== publishing

export type Outcome = typeof published | typeof partial | typeof failed

/** The event an outcome emits. */
export const outcomeEvent = (outcome: Outcome): EventKind => `post.${outcome}`

/** What moves a post. */
export type Action =
  | "edit" // PATCH: its content, time or draft flag
  | "submit" // a draft asks for approval
  | "approve"
  | "requestChanges"
  | "begin" // the engine takes a scheduled post at its time
  | "finish" // every target has ended
  | "retry" // the failed targets of an outcome go out again

export interface Move {
  readonly action: Action
  readonly from: Status
  readonly to: Status
  /** The event the move emits; `undefined` where it depends on more than the move (an edit: updated or rescheduled) or there is none (begin). */
  readonly event: EventKind | undefined
}

const moves = (action: Action, from: ReadonlyArray<Status>, to: ReadonlyArray<Status>, event: (to: Status) => EventKind | undefined) =>
  from.flatMap((source) => to.map((target): Move => ({ action, from: source, to: target, event: event(target) })))

/** Every move a post may make. A post is created into `draft`, `awaiting_approval`, `scheduled` or `publishing` (see `onCreate`). */
export const table: ReadonlyArray<Move> = [
  ...moves("edit", editable, [draft, awaiting_approval, scheduled, publishing], () => undefined),
  ...moves("submit", [draft], [awaiting_approval], () => "post.submitted"),
  ...moves("approve", [awaiting_approval], [scheduled, publishing], () => "post.approved"),
  ...moves("requestChanges", [awaiting_approval], [draft], () => "post.changes_requested"),
  ...moves("begin", [scheduled], [publishing], () => undefined),
  ...moves("finish", [publishing], final, (to) => outcomeEvent(to as Outcome)),
  ...moves("retry", retryable, [publishing], () => "post.retried")
]

/** Whether `action` may move a post from `from` to `to` (any action when none is given). */
export const canMove = (from: Status, to: Status, action?: Action) =>
  table.some((move) => move.from === from && move.to === to && (action === undefined || move.action === action))

/** The status `action` expects a post to be in, where there is only one (submit, approve, requestChanges, begin). */
export const sourceOf = (action: "submit" | "approve" | "requestChanges" | "begin"): Status =>
  table.find((move) => move.action === action)!.from

/** The status a new post starts in. */
export const onCreate = (timing: { readonly draft: boolean; readonly awaitingApproval: boolean; readonly publishNow: boolean }): Status =>
  timing.draft ? draft : timing.awaitingApproval ? awaiting_approval : timing.publishNow ? publishing : scheduled

/**
 * The status an edit leaves a post in: a draft stays one (or becomes one); an edit under approval goes (back)
 * to approval rather than to the schedule; a time already come sends it now.
 */
export const onPatch = (
  from: Status,
  change: { readonly toDraft: boolean; readonly needsApproval: boolean; readonly timeHasCome: boolean }
): Status | undefined =>
  !isEditable(from)
    ? undefined
    : change.toDraft
    ? draft
    : from === awaiting_approval || change.needsApproval
    ? awaiting_approval
    : change.timeHasCome
    ? publishing
    : scheduled

/** Approved at or after its time, a post goes out now; before, it waits for it. */
export const onApprove = (at: number, now: number): Status => at <= now ? publishing : scheduled

/** A retry sends an outcome's failed targets out again; `undefined` for a post that is not an outcome to retry. */
export const onRetry = (from: Status): Status | undefined => retryable.includes(from) ? publishing : undefined

/**
 * A post's outcome from its targets': `undefined` while one is pending; published when none failed, failed
 * when none was published, partial otherwise.
 */
export const onPublishOutcome = (targets: ReadonlyArray<TargetStatus>): Outcome | undefined =>
  targets.includes("pending")
    ? undefined
    : !targets.includes("failed")
    ? published
    : !targets.includes("published")
    ? failed
    : partial

