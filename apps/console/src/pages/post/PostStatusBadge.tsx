import type { PostStatus, Target } from "./postQuery.ts"

// A post's status in words and colour, the same on the post page and in the approvals list.
const words: Readonly<Record<PostStatus, string>> = {
  draft: "Draft",
  awaiting_approval: "Awaiting approval",
  scheduled: "Scheduled",
  publishing: "Publishing",
  published: "Published",
  partial: "Partly published",
  failed: "Failed"
}

const tone: Readonly<Record<PostStatus, string>> = {
  draft: "badge-muted",
  awaiting_approval: "badge-waiting",
  scheduled: "",
  publishing: "",
  published: "badge-success",
  partial: "badge-waiting",
  failed: "badge-error"
}

const statusWords = (status: PostStatus): string => words[status] ?? status

export const PostStatusBadge = ({ status }: { readonly status: PostStatus }) => (
  <span className={`badge ${tone[status] ?? ""}`}>{statusWords(status)}</span>
)

/** One target's state: still to go (or going, while the post is publishing), out, or refused. */
export const TargetStatusBadge = ({ target, postStatus }: { readonly target: Target; readonly postStatus: PostStatus }) =>
  target.status === "published"
    ? <span className="badge badge-success">Published</span>
    : target.status === "failed"
    ? <span className="badge badge-error">Failed</span>
    : <span className="badge badge-muted">{postStatus === "publishing" ? "Going out" : "Waiting"}</span>
