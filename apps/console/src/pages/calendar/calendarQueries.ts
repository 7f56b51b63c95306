import { infiniteQueryOptions, queryOptions } from "@tanstack/react-query"
import { ApiError } from "../../api/ApiError.ts"
import { api, unwrap } from "../../api/client.ts"
import type { Post, QueueSeat } from "./status.ts"

// What the calendar reads, a visible range at a time (decision 0042): a workspace of 100,000 posts shows a
// month from the few thousand posts in it, never the rest.

/** Under the post page's key, so that a change to any post anywhere in the console refreshes the calendar too. */
export const rangeKey = ["posts", "calendar-range"] as const

/** The workspace, as Settings > Workspace caches it: the calendar reads its time zone. */
export const workspaceQuery = queryOptions({
  queryKey: ["workspace"],
  queryFn: () => unwrap(api.GET("/api/v1/workspace")),
  staleTime: 60_000
})

const pageSize = 100

/** Every post from `from` (included) to `to` (excluded), following the API's cursor to the range's end. */
const postsBetween = async (from: string, to: string): Promise<Array<Post>> => {
  const posts: Array<Post> = []
  let cursor: string | undefined
  do {
    const { data, error, response } = await api.GET("/api/v1/posts", {
      params: { query: { from, to, limit: pageSize, ...(cursor === undefined ? {} : { cursor }) } }
    })
    // Not unwrap: the page's nextCursor sits beside its data.
    if (data === undefined) throw ApiError.from(response.status, error)
    posts.push(...data.data)
    cursor = data.nextCursor ?? undefined
  } while (cursor !== undefined)
  return posts
}

/**
 * One week's posts (`from`/`to` are its bounds in the workspace's zone). A month is five or six of these,
 * loaded side by side and shown as each arrives; the week view reuses the month's.
 */
export const weekQuery = (from: string, to: string) =>
  queryOptions({
    queryKey: [...rangeKey, from, to],
    queryFn: () => postsBetween(from, to),
    staleTime: 30_000
  })

export const queueKey = ["queue", "calendar"] as const

/**
 * The queue's slots from `from` to `to`, each with the post seated there or none. The queue shows only what is
 * ahead, so a range in the past has none.
 */
export const queueQuery = (from: string, to: string) =>
  queryOptions({
    queryKey: [...queueKey, from, to],
    queryFn: async (): Promise<Array<QueueSeat>> => {
      const start = new Date(Math.max(Date.parse(from), Date.now())).toISOString()
      if (start >= to) return []
      const seats: Array<QueueSeat> = []
      let cursor: string | undefined
      do {
        const { data, error, response } = await api.GET("/api/v1/queue", {
          params: { query: { from: start, limit: pageSize, ...(cursor === undefined ? {} : { cursor }) } }
        })
        if (data === undefined) throw ApiError.from(response.status, error)
        const inRange = data.data.filter((seat) => Date.parse(seat.at) < Date.parse(to))
        seats.push(...inRange)
        // Slots come by time: once one lies past the range, the rest do too.
        cursor = inRange.length < data.data.length ? undefined : data.nextCursor ?? undefined
      } while (cursor !== undefined)
      return seats
    },
    staleTime: 30_000
  })

export const listKey = ["posts", "calendar-list"] as const

export interface ListFilters {
  readonly status?: string | undefined
  readonly accountId?: string | undefined
  readonly from?: string | undefined
  readonly to?: string | undefined
}

/** The list view: a page of posts at a time by time, filtered by the API, "Load more" following the cursor. */
export const listQuery = (filters: ListFilters, limit: number) =>
  infiniteQueryOptions({
    queryKey: [...listKey, filters.status ?? "", filters.accountId ?? "", filters.from ?? "", filters.to ?? "", limit],
    queryFn: async ({ pageParam }) => {
      const { data, error, response } = await api.GET("/api/v1/posts", {
        params: {
          query: {
            limit,
            ...(filters.status === undefined ? {} : { status: filters.status }),
            ...(filters.accountId === undefined ? {} : { accountId: filters.accountId }),
            ...(filters.from === undefined ? {} : { from: filters.from }),
            ...(filters.to === undefined ? {} : { to: filters.to }),
            ...(pageParam === undefined ? {} : { cursor: pageParam })
          }
        }
      })
      if (data === undefined) throw ApiError.from(response.status, error)
      return data
    },
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined
  })
