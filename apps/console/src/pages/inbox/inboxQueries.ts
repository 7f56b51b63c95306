import type { components } from "@herald/client/api"
import { type QueryClient, queryOptions, useInfiniteQuery } from "@tanstack/react-query"
import { ApiError } from "../../api/ApiError.ts"
import { api, unwrap } from "../../api/client.ts"

export type Comment = components["schemas"]["Comment"]
export type Conversation = components["schemas"]["Conversation"]

/** Which items the page shows: one account, one network's accounts, or all (undefined). */
export interface InboxFilter {
  readonly accountId?: string | undefined
  readonly platform?: string | undefined
}

/** The root of every inbox query: a reply or a read mark invalidates them all (lists and counts). */
const inboxKey = ["inbox"] as const

// New comments and messages arrive from the networks on their own: the lists and counts look again now and then.
const refetchInterval = 15_000

export const unreadQuery = queryOptions({
  queryKey: [...inboxKey, "unread"],
  queryFn: () => unwrap(api.GET("/api/v1/inbox/unread")),
  refetchInterval
})

const query = (filter: InboxFilter, cursor: string | undefined) => ({
  limit: 20,
  ...(cursor === undefined ? {} : { cursor }),
  ...(filter.accountId === undefined ? {} : { accountId: filter.accountId }),
  ...(filter.platform === undefined ? {} : { platform: filter.platform })
})

/** A page of the API's list, with the cursor of the next one. */
const pageOf = async <Item,>(call: Promise<{ data?: { data: ReadonlyArray<Item>; nextCursor: string | null }; error?: unknown; response: Response }>) => {
  const { data, error, response } = await call
  if (!response.ok || data === undefined) throw ApiError.from(response.status, error)
  return data
}

export const useComments = (filter: InboxFilter) =>
  useInfiniteQuery({
    queryKey: [...inboxKey, "comments", filter],
    queryFn: ({ pageParam }) => pageOf(api.GET("/api/v1/inbox/comments", { params: { query: query(filter, pageParam) } })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval
  })

export const useConversations = (filter: InboxFilter) =>
  useInfiniteQuery({
    queryKey: [...inboxKey, "conversations", filter],
    queryFn: ({ pageParam }) => pageOf(api.GET("/api/v1/inbox/conversations", { params: { query: query(filter, pageParam) } })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval
  })

export const useMessages = (conversationId: string) =>
  useInfiniteQuery({
    queryKey: [...inboxKey, "messages", conversationId],
    queryFn: ({ pageParam }) =>
      pageOf(api.GET("/api/v1/inbox/conversations/{id}/messages", {
        params: { path: { id: conversationId }, query: { limit: 20, ...(pageParam === undefined ? {} : { cursor: pageParam }) } }
      })),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval
  })

/** After a reply or a read mark: every list and count may have changed. */
export const refreshInbox = (queryClient: QueryClient) => queryClient.invalidateQueries({ queryKey: inboxKey })

/** "3 unread", or nothing when there are none. */
export const unreadLabel = (count: number | undefined) => (count === undefined || count === 0 ? undefined : `${count} unread`)
