import { useQuery } from "@tanstack/react-query"
import { api, unwrap } from "../../api/client.ts"
import { QueryState } from "../../components/Page.tsx"
import { when } from "../../components/when.ts"
import { type PostEvent, textOf, usePostEvents } from "./postEvents.ts"
import type { Post } from "./postQuery.ts"

// The post's history, oldest first: each event in words, who acted where known, and a reviewer's note.
export const PostEvents = ({ post }: { readonly post: Post }) => {
  const events = usePostEvents(post)
  const members = useQuery({ queryKey: ["members"], queryFn: () => unwrap(api.GET("/api/v1/members")) })
  const who = (event: PostEvent): string | undefined => {
    const memberId = textOf(event.data["memberId"])
    if (memberId !== undefined) return members.data?.find((member) => member.id === memberId)?.email ?? "a member"
    return textOf(event.data["profileId"]) === undefined ? undefined : "a client reviewer (review link)"
  }
  return (
    <QueryState query={events} what="the post's history" empty={<p>Nothing has happened to this post yet.</p>}>
      {(list) => (
        <ol className="post-events" aria-label="Events, oldest first">
          {list.map((event) => {
            const by = who(event)
            const note = textOf(event.data["note"])
            return (
              <li key={event.id}>
                <time dateTime={event.createdAt}>{when(event.createdAt)}</time>
                <div>
                  <p>
                    {describe(event)}
                    {by === undefined ? null : <span className="muted"> by {by}</span>}
                  </p>
                  {note === undefined ? null : <p className="post-note">“{note}”</p>}
                </div>
              </li>
            )
          })}
        </ol>
      )}
    </QueryState>
  )
}

const postOf = (event: PostEvent): Post | undefined => {
  const post = event.data["post"]
  return typeof post === "object" && post !== null ? (post as Post) : undefined
}

// An event in words; one Herald adds later is shown by its name.
const describe = (event: PostEvent): string => {
  const post = postOf(event)
  const at = post?.scheduledAt === null || post?.scheduledAt === undefined ? undefined : when(post.scheduledAt)
  const time = at === undefined ? "" : ` for ${at}`
  const failed = post?.targets.filter((target) => target.status === "failed").length ?? 0
  switch (event.event) {
    case "post.created":
      return event.data["status"] === "awaiting_approval" ? "Created, awaiting approval" : "Created as a draft"
    case "post.scheduled":
      return `Scheduled${time}`
    case "post.updated":
      return "Changed"
    case "post.rescheduled":
      return at === undefined ? "Moved" : `Moved to ${at}`
    case "post.submitted":
      return `Submitted for approval${time}`
    case "post.approved":
      return "Approved"
    case "post.changes_requested":
      return "Sent back: changes requested"
    case "post.retried":
      return "Failed targets sent again"
    case "post.published":
      return "Published on every network"
    case "post.partial":
      return `Partly published: ${failed} of ${post?.targets.length ?? 0} targets failed`
    case "post.failed":
      return "Failed"
    case "post.deleted":
      return "Deleted"
    default:
      return event.event
  }
}
