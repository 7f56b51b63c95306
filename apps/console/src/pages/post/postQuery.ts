import type { components } from "@herald/client/api"
import { queryOptions } from "@tanstack/react-query"
import { api, unwrap } from "../../api/client.ts"

export type Post = components["schemas"]["Post"]
export type Target = components["schemas"]["Target"]
export type PostStatus = Post["status"]

/** Every cached post, post page and list alike: invalidated together after any change to a post. */
export const postsKey = ["posts"] as const

// A post changes by itself only while it waits for its time or goes out; then the page asks every second,
// so a new status shows within two seconds (docs/decisions/0040-live-post-status.md). Otherwise it changes
// only when someone acts on it elsewhere, and a slower look suffices.
const changing = new Set<PostStatus>(["scheduled", "publishing", "awaiting_approval"])
const pollEveryMs = (post: Post | undefined): number => (post !== undefined && changing.has(post.status) ? 1_000 : 10_000)

export const postQuery = (id: string) =>
  queryOptions({
    queryKey: [...postsKey, id],
    queryFn: () => unwrap(api.GET("/api/v1/posts/{id}", { params: { path: { id } } })),
    refetchInterval: (query) => pollEveryMs(query.state.data)
  })
