import { useState } from "react"
import { ApiError } from "../../api/ApiError.ts"
import { ErrorMessage } from "../../components/Banner.tsx"
import { Button } from "../../components/Button.tsx"
import { Dialog } from "../../components/Dialog.tsx"
import { TextField } from "../../components/Field.tsx"
import { type Post, timeOf } from "./status.ts"
import { useMovePost } from "./useMovePost.ts"
import { instantOfLocalInput, localInputOf } from "../../components/zone.ts"

/**
 * The keyboard's way to reschedule: a date and time in the workspace's zone, sent as is; the API says whether
 * it will do (a past time, a post that already went out), in its words, beside the field.
 */
export const MoveDialog = ({ post, zone, onClose, onMoved }: {
  readonly post: Post | undefined
  readonly zone: string
  readonly onClose: () => void
  readonly onMoved: (post: Post) => void
}) => (
  <Dialog open={post !== undefined} title="Move the post" onClose={onClose}>
    {post === undefined ? null : <MoveForm key={post.id} post={post} zone={zone} onClose={onClose} onMoved={onMoved} />}
  </Dialog>
)

const MoveForm = ({ post, zone, onClose, onMoved }: {
  readonly post: Post
  readonly zone: string
  readonly onClose: () => void
  readonly onMoved: (post: Post) => void
}) => {
  const [value, setValue] = useState(localInputOf(zone, timeOf(post)))
  const move = useMovePost()
  const to = instantOfLocalInput(zone, value)
  const about = move.error instanceof ApiError ? move.error.about("scheduledAt") : undefined
  return (
    <form
      className="stack"
      onSubmit={(event) => {
        event.preventDefault()
        if (to !== undefined) move.mutate({ post, to }, { onSuccess: (moved) => onMoved(moved) })
      }}
    >
      <p className="calendar-move-text">{post.content.trim() === "" ? "(media only)" : post.content}</p>
      {about === undefined ? <ErrorMessage error={move.error} title="Could not move the post" /> : null}
      <TextField
        label="New date and time"
        type="datetime-local"
        hint={`In the workspace's time zone, ${zone}.`}
        value={value}
        onChange={(event) => setValue(event.currentTarget.value)}
        error={about ?? (to === undefined ? "Choose a date and a time." : undefined)}
        required
      />
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={move.isPending} disabled={to === undefined}>Move post</Button>
        <Button onClick={onClose}>Cancel</Button>
      </div>
    </form>
  )
}
