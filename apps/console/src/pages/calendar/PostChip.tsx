import { Link } from "@tanstack/react-router"
import type { DragEvent } from "react"
import { movable, type Network, type Post, shownOf, statusWords, timeOf } from "./status.ts"
import { timeIn } from "../../components/zone.ts"

/** What a dragged post carries, so that a drop of anything else (a link, a file) is ignored. */
export const dragType = "application/x-herald-post"

/** The networks a post goes to, each once, as the API names them. */
const networksOf = (post: Post) => [...new Set(post.targets.map((target) => target.platform))]

/** A post's networks as their icons (from GET /api/v1/networks), each named for screen readers. */
export const NetworkMarks = ({ post, networks }: { readonly post: Post; readonly networks: ReadonlyMap<string, Network> }) => (
  <span className="calendar-networks">
    {networksOf(post).map((key) => {
      const network = networks.get(key)
      return network?.icon == null
        ? <span key={key} className="calendar-network-name">{network?.name ?? key}</span>
        : <img key={key} src={network.icon} alt={network.name} width="16" height="16" />
    })}
  </span>
)

export const StatusBadge = ({ post }: { readonly post: Post }) => {
  const shown = shownOf(post)
  return <span className={`calendar-status post-${shown}`}>{statusWords[shown]}</span>
}

/**
 * A post in the calendar: its time in the workspace's zone, networks, status in words and colour, and its text,
 * opening the post's page. A draft or scheduled post can be dragged to another day or time, or moved with
 * its "Move…" button (shown when the post has focus or the pointer), which is the keyboard's way.
 */
export const PostChip = ({ post, zone, networks, onMove }: {
  readonly post: Post
  readonly zone: string
  readonly networks: ReadonlyMap<string, Network>
  readonly onMove: (post: Post) => void
}) => {
  const canMove = movable(post)
  const time = timeIn(zone, timeOf(post))
  const start = (event: DragEvent) => {
    event.dataTransfer.setData(dragType, post.id)
    event.dataTransfer.effectAllowed = "move"
  }
  return (
    <li className={`calendar-post post-${shownOf(post)}`}>
      <Link
        to="/posts/$id"
        params={{ id: post.id }}
        className="calendar-post-link"
        {...(canMove ? { draggable: true, onDragStart: start } : {})}
      >
        <span className="calendar-post-head">
          <time dateTime={timeOf(post).toISOString()}>{time}</time>
          <NetworkMarks post={post} networks={networks} />
          <StatusBadge post={post} />
        </span>
        <span className="calendar-post-text">{post.content.trim() === "" ? "(media only)" : post.content}</span>
      </Link>
      {canMove
        ? (
          <button type="button" className="calendar-post-move" onClick={() => onMove(post)}>
            Move…<span className="visually-hidden"> the post of {time}</span>
          </button>
        )
        : null}
    </li>
  )
}
