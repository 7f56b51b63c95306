import { queryOptions, useQuery } from "@tanstack/react-query"
import { api, unwrap } from "../../api/client.ts"
import { type Post, postsKey } from "./postQuery.ts"

/** One thing that happened to a post, as webhooks carry it (`data` by event: docs/webhooks.md). */
export interface PostEvent {
  readonly id: string
  readonly event: string
  readonly createdAt: string
  readonly data: { readonly [key: string]: unknown }
}

// What the post looks like now: when it changes (a status, a target, a time), its events are asked again,
// so the history follows the polled post without being polled itself.
const stamp = (post: Post) =>
  [post.status, post.scheduledAt, post.publishedAt, ...post.targets.map((target) => target.status)].join(" ")

export const eventsQuery = (post: Post) =>
  queryOptions({
    queryKey: [...postsKey, post.id, "events", stamp(post)],
    queryFn: async (): Promise<ReadonlyArray<PostEvent>> =>
      unwrap(api.GET("/api/v1/posts/{id}/events", { params: { path: { id: post.id } } })),
    // The previous history stays on screen while the next is asked for.
    placeholderData: (previous) => previous
  })

export const usePostEvents = (post: Post) => useQuery(eventsQuery(post))

const reviewEvents = new Set(["post.submitted", "post.approved", "post.changes_requested"])

/** Where a post stands in review: who submitted it last, and the last decision (with its note) if any. */
export interface Review {
  readonly submittedBy: string | undefined
  readonly last: PostEvent | undefined
  readonly note: string | undefined
}

export const reviewOf = (events: ReadonlyArray<PostEvent>): Review => {
  const review = events.filter((event) => reviewEvents.has(event.event))
  const submitted = review.filter((event) => event.event === "post.submitted").at(-1)
  const last = review.at(-1)
  return {
    submittedBy: textOf(submitted?.data["memberId"]),
    last,
    note: textOf(last?.data["note"])
  }
}

export const textOf = (value: unknown): string | undefined => (typeof value === "string" && value !== "" ? value : undefined)
