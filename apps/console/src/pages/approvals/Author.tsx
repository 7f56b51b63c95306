import { useQuery } from "@tanstack/react-query"
import { api, unwrap } from "../../api/client.ts"
import { useSession } from "../../api/session.ts"
import { reviewOf, usePostEvents } from "../post/postEvents.ts"
import type { Post } from "../post/postQuery.ts"

/** Who submitted a post for approval, from its events: a member by e-mail ("you" for oneself), or a key. */
export const Author = ({ post }: { readonly post: Post }) => {
  const session = useSession()
  const events = usePostEvents(post)
  const members = useQuery({ queryKey: ["members"], queryFn: () => unwrap(api.GET("/api/v1/members")) })
  if (events.data === undefined) return null
  const memberId = reviewOf(events.data).submittedBy
  if (memberId === undefined) {
    return events.data.some((event) => event.event === "post.submitted") ? <>Submitted through a workspace key</> : null
  }
  if (memberId === session.workspace.memberId) return <>Submitted by you</>
  const email = members.data?.find((member) => member.id === memberId)?.email
  return email === undefined ? null : <>Submitted by {email}</>
}
