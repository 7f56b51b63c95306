import { useQuery } from "@tanstack/react-query"
import { useState } from "react"
import { ApiError } from "../../api/ApiError.ts"
import { api } from "../../api/client.ts"
import { Banner } from "../../components/Banner.tsx"
import { Button } from "../../components/Button.tsx"
import { QueryState } from "../../components/Page.tsx"
import { type Post, postsKey } from "../post/postQuery.ts"
import { Author } from "./Author.tsx"
import { PostCard, postLabel } from "./PostCard.tsx"
import { ReviewDecision } from "./ReviewDecision.tsx"

const pageSize = 20

interface PostPage {
  readonly data: ReadonlyArray<Post>
  readonly nextCursor: string | null
}

// Every post awaiting approval, by time, a page at a time ("Later" follows nextCursor, "Earlier" goes back
// along the cursors seen), each with the decision in place.
export const AwaitingApproval = () => {
  const [cursors, setCursors] = useState<ReadonlyArray<string>>([])
  const [decided, setDecided] = useState<string | undefined>(undefined)
  const cursor = cursors.at(-1)
  const page = useQuery({
    queryKey: [...postsKey, "list", "awaiting_approval", cursor ?? "first"],
    queryFn: async (): Promise<PostPage> => {
      const { data, error, response } = await api.GET("/api/v1/posts", {
        params: { query: { status: "awaiting_approval", limit: pageSize, ...(cursor === undefined ? {} : { cursor }) } }
      })
      if (!response.ok || data === undefined) throw ApiError.from(response.status, error)
      return data
    },
    // Others decide too: the list follows within seconds while it is open.
    refetchInterval: 5_000
  })
  return (
    <div className="stack">
      {decided === undefined ? null : <Banner tone="success"><p>{decided}</p></Banner>}
      <QueryState
        query={page}
        what="posts awaiting approval"
        isEmpty={(data) => data.data.length === 0 && cursor === undefined}
        empty={<p>No post is waiting for approval.</p>}
      >
        {(data) => (
          <>
            <ul className="approval-list" aria-label="Posts awaiting approval">
              {data.data.map((post) => (
                <PostCard key={post.id} post={post} author={<Author post={post} />}>
                  <ReviewDecision
                    post={post}
                    label={postLabel(post)}
                    onDecided={(decision, next) =>
                      setDecided(
                        decision === "approve"
                          ? `Approved ${postLabel(next)}: it is ${next.status === "publishing" ? "going out now" : "scheduled"}.`
                          : `Sent ${postLabel(next)} back to its author with your note.`
                      )}
                  />
                </PostCard>
              ))}
            </ul>
            {cursor === undefined && data.nextCursor === null ? null : (
              <div className="pager">
                <Button onClick={() => setCursors((seen) => seen.slice(0, -1))} disabled={cursor === undefined}>Earlier</Button>
                <Button
                  onClick={() => data.nextCursor !== null && setCursors((seen) => [...seen, data.nextCursor!])}
                  disabled={data.nextCursor === null}
                >
                  Later
                </Button>
              </div>
            )}
          </>
        )}
      </QueryState>
    </div>
  )
}
