import type { components } from "@herald/client/api"
import * as PostStatus from "@herald/domain/PostStatus"

export type Post = components["schemas"]["Post"]
export type Account = components["schemas"]["Account"]
export type Network = components["schemas"]["Network"]
export type QueueSeat = components["schemas"]["QueueSeat"]

// How the calendar names a post's state: the API's status, except that a scheduled post holding a queue
// slot reads "queued". Each has its colour (calendar.css, `.post-<shown>`) and always its words beside it.
export type Shown = "draft" | "awaiting_approval" | "scheduled" | "queued" | "publishing" | "published" | "partial" | "failed"

export const shownOf = (post: Post): Shown => (post.status === "scheduled" && post.queued ? "queued" : post.status)

export const statusWords: Record<Shown, string> = {
  draft: "Draft",
  awaiting_approval: "Awaiting approval",
  scheduled: "Scheduled",
  queued: "Queued",
  publishing: "Publishing",
  published: "Published",
  partial: "Partly published",
  failed: "Failed"
}

/** The API's post statuses, for the list's filter (queued posts are scheduled ones to the API). */
export const apiStatuses: ReadonlyArray<Post["status"]> = PostStatus.all

/** Only drafts and scheduled posts may be moved: the others are under review or already out. */
export const movable = (post: Post) => post.status === "draft" || post.status === "scheduled"

/** Where the calendar puts a post: its planned time, or its creation for an unscheduled draft (as the API sorts). */
export const timeOf = (post: Post) => new Date(post.scheduledAt ?? post.createdAt)
