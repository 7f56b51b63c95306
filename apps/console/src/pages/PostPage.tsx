import { useQuery } from "@tanstack/react-query"
import { getRouteApi, Link } from "@tanstack/react-router"
import { Page, QueryState } from "../components/Page.tsx"
import { when } from "../components/when.ts"
import { PostActions } from "./post/PostActions.tsx"
import { PostContent } from "./post/PostContent.tsx"
import { PostEvents } from "./post/PostEvents.tsx"
import { PostOptions } from "./post/PostOptions.tsx"
import { type Post, postQuery } from "./post/postQuery.ts"
import { PostStatusBadge } from "./post/PostStatusBadge.tsx"
import { PostTargets } from "./post/PostTargets.tsx"
import { ReviewLink } from "./post/ReviewLink.tsx"
import "./post/post.css"

const route = getRouteApi("/shell/posts/$id")

// One post: where it goes and how each target went (link, or the network's refusal in words), what it says,
// what happened to it, and what can be done with it now. Its status follows the server's within two seconds
// without a reload (postQuery polls while the post can change by itself).
export const PostPage = () => {
  const { id } = route.useParams()
  const post = useQuery(postQuery(id))
  return (
    <Page title="Post" description={post.data === undefined ? undefined : <PostSummary post={post.data} />}>
      <p><Link to="/calendar">← Calendar</Link></p>
      <QueryState query={post} what="the post">
        {(data) => <PostDetail post={data} />}
      </QueryState>
    </Page>
  )
}

// "Scheduled · 24 Nov 2026, 16:10", said in the page's live region so a change is announced.
const PostSummary = ({ post }: { readonly post: Post }) => (
  <span className="post-summary" role="status">
    <PostStatusBadge status={post.status} />
    <span>
      {post.publishedAt !== null
        ? `Out since ${when(post.publishedAt)}`
        : post.scheduledAt !== null
        ? `${post.queued ? "Queued for" : "For"} ${when(post.scheduledAt)}`
        : `No time yet · created ${when(post.createdAt)}`}
    </span>
  </span>
)

const PostDetail = ({ post }: { readonly post: Post }) => (
  <>
    <PostActions post={post} />
    <section className="card stack" aria-labelledby="targets-heading">
      <h2 id="targets-heading">Where it goes</h2>
      <PostTargets post={post} />
    </section>
    <section className="card stack" aria-labelledby="content-heading">
      <h2 id="content-heading">What it says</h2>
      <PostContent post={post} />
      <PostOptions post={post} />
    </section>
    {post.status === "awaiting_approval"
      ? (
        <section className="card stack" aria-labelledby="review-heading">
          <h2 id="review-heading">Client review</h2>
          <ReviewLink post={post} />
        </section>
      )
      : null}
    <section className="card stack" aria-labelledby="events-heading">
      <h2 id="events-heading">History</h2>
      <PostEvents post={post} />
    </section>
  </>
)
