import { useMutation, useQueryClient } from "@tanstack/react-query"
import { ApiError } from "../../api/ApiError.ts"
import { api, unwrap } from "../../api/client.ts"
import { listKey, queueKey, rangeKey } from "./calendarQueries.ts"
import { type Post, timeOf } from "./status.ts"

export interface Move {
  readonly post: Post
  readonly to: Date
}

/**
 * Reschedules a post (`PATCH /api/v1/posts/:id { scheduledAt }`; the API judges the time). The moved post is
 * put into the loaded weeks by hand rather than by reloading them, which in a busy workspace would mean
 * thousands of posts again for one change.
 */
export const useMovePost = () => {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ post, to }: Move) =>
      unwrap(api.PATCH("/api/v1/posts/{id}", { params: { path: { id: post.id } }, body: { scheduledAt: to.toISOString() } })),
    onSuccess: async (moved) => {
      const at = timeOf(moved).getTime()
      for (const query of queryClient.getQueryCache().findAll({ queryKey: rangeKey })) {
        const [, , from, to] = query.queryKey as [string, string, string, string]
        const posts = query.state.data as Array<Post> | undefined
        if (posts === undefined) continue
        const others = posts.filter((post) => post.id !== moved.id)
        const inside = at >= Date.parse(from) && at < Date.parse(to)
        if (!inside && others.length === posts.length) continue
        queryClient.setQueryData(query.queryKey, inside ? [...others, moved].sort(byTime) : others)
      }
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: listKey }),
        queryClient.invalidateQueries({ queryKey: queueKey }),
        queryClient.invalidateQueries({ queryKey: ["posts", moved.id] })
      ])
    },
    // Gone or changed meanwhile (deleted, published, sent for approval): the calendar shows it as it now is.
    onError: (error) => {
      if (error instanceof ApiError && (error.status === 404 || error.status === 409)) {
        void queryClient.invalidateQueries({ queryKey: rangeKey })
      }
    }
  })
}

export const byTime = (a: Post, b: Post) => timeOf(a).getTime() - timeOf(b).getTime() || (a.id < b.id ? -1 : 1)
