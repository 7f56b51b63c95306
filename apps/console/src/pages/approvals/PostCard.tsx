import { Link } from "@tanstack/react-router"
import type { ReactNode } from "react"
import { NetworkIcon } from "../../components/NetworkIcon.tsx"
import { when } from "../../components/when.ts"
import type { Post } from "../post/postQuery.ts"
import { PostStatusBadge } from "../post/PostStatusBadge.tsx"
import { useNetworks } from "../post/useNetworks.ts"

/** How a post is named in a list and in its buttons: by its time, or its creation without one. */
export const postLabel = (post: Post): string =>
  post.scheduledAt === null ? `the post created ${when(post.createdAt)}` : `the post for ${when(post.scheduledAt)}`

// A post in the approvals lists: its time (a link to its page), status, author, text and networks, then
// whatever the list adds (the decision, the note it was sent back with).
export const PostCard = ({ post, author, children }: {
  readonly post: Post
  readonly author: ReactNode
  readonly children?: ReactNode
}) => {
  const networks = useNetworks()
  return (
    <li className="card approval">
      <div className="approval-head">
        <h3>
          <Link to="/posts/$id" params={{ id: post.id }}>
            {post.scheduledAt === null ? `Created ${when(post.createdAt)}` : when(post.scheduledAt)}
          </Link>
        </h3>
        <span className="post-summary">
          <PostStatusBadge status={post.status} />
          <span className="muted">{author}</span>
        </span>
      </div>
      {post.content === "" ? null : <p className="approval-text">{post.content}</p>}
      <ul className="approval-networks" aria-label="Goes to">
        {post.targets.map((target) => (
          <li key={target.accountId}>
            <NetworkIcon icon={networks.get(target.platform)?.icon} />
            <span>@{target.username} <span className="muted">on {networks.name(target.platform)}</span></span>
          </li>
        ))}
      </ul>
      {children}
    </li>
  )
}
