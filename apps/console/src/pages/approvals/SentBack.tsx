import { useQueries, useQuery } from "@tanstack/react-query"
import { Link } from "@tanstack/react-router"
import { api, unwrap } from "../../api/client.ts"
import { useSession } from "../../api/session.ts"
import { Empty, Loading } from "../../components/Page.tsx"
import { ErrorMessage } from "../../components/Banner.tsx"
import { when } from "../../components/when.ts"
import { eventsQuery, reviewOf, textOf } from "../post/postEvents.ts"
import { postsKey } from "../post/postQuery.ts"
import { PostCard } from "./PostCard.tsx"

// How far back drafts are looked at: one sent back keeps the time it was submitted for.
const lookBackDays = 30

// Drafts whose last review was "request changes", with the note: an editor sees their own, owners and
// admins every one. The posts list has no "sent back" filter, so each recent draft's events are read.
export const SentBack = ({ mineOnly }: { readonly mineOnly: boolean }) => {
  const session = useSession()
  const drafts = useQuery({
    queryKey: [...postsKey, "list", "draft", "recent"],
    queryFn: () => {
      const from = new Date(Date.now() - lookBackDays * 24 * 60 * 60 * 1000).toISOString()
      return unwrap(api.GET("/api/v1/posts", { params: { query: { status: "draft", from, limit: 100 } } }))
    },
    refetchInterval: 5_000
  })
  const histories = useQueries({ queries: (drafts.data ?? []).map((post) => eventsQuery(post)) })
  const members = useQuery({ queryKey: ["members"], queryFn: () => unwrap(api.GET("/api/v1/members")) })
  if (drafts.isPending || histories.some((history) => history.isPending)) return <Loading what="Loading posts sent back" />
  if (drafts.isError) return <ErrorMessage error={drafts.error} title="Could not load the drafts" />
  const sentBack = drafts.data.flatMap((post, index) => {
    const events = histories[index]?.data
    if (events === undefined) return []
    const review = reviewOf(events)
    if (review.last?.event !== "post.changes_requested") return []
    if (mineOnly && review.submittedBy !== session.workspace.memberId) return []
    return [{ post, review }]
  })
  if (sentBack.length === 0) {
    return <Empty><p>{mineOnly ? "None of your posts is waiting for changes." : "No post is waiting for changes."}</p></Empty>
  }
  const email = (memberId: string | undefined) =>
    memberId === undefined
      ? undefined
      : memberId === session.workspace.memberId
      ? "you"
      : members.data?.find((member) => member.id === memberId)?.email
  return (
    <ul className="approval-list" aria-label="Posts sent back for changes">
      {sentBack.map(({ post, review }) => {
        const author = email(review.submittedBy)
        const reviewer = review.last === undefined ? undefined : email(textOf(review.last.data["memberId"]))
        return (
          <PostCard key={post.id} post={post} author={author === undefined ? null : `Submitted by ${author}`}>
            <div className="stack">
              <p>
                Sent back {reviewer === undefined ? "" : `by ${reviewer} `}on {when(review.last?.createdAt)}:
              </p>
              {review.note === undefined ? null : <p className="post-note">“{review.note}”</p>}
              <div>
                <Link to="/posts/$id/edit" params={{ id: post.id }} className="button button-secondary">
                  Edit<span className="visually-hidden"> the post sent back on {when(review.last?.createdAt)}</span>
                </Link>
              </div>
            </div>
          </PostCard>
        )
      })}
    </ul>
  )
}
