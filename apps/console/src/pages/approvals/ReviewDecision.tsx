import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useId, useState } from "react"
import { ApiError } from "../../api/ApiError.ts"
import { api, unwrap } from "../../api/client.ts"
import { ErrorMessage } from "../../components/Banner.tsx"
import { Button } from "../../components/Button.tsx"
import { type Post, postsKey } from "../post/postQuery.ts"

type Decision = "approve" | "request-changes"

// Approve (the note is optional) or send back (the note says what to change), in place. Who may decide is
// the API's to say: an editor's attempt shows its refusal in words.
export const ReviewDecision = ({ post, label, onDecided }: {
  readonly post: Post
  /** Names the post in the buttons' accessible names: "Approve the post for 24 Nov, 16:10". */
  readonly label: string
  readonly onDecided: (decision: Decision, post: Post) => void
}) => {
  const queryClient = useQueryClient()
  const [note, setNote] = useState("")
  const id = useId()
  const decide = useMutation({
    mutationFn: (decision: Decision) => {
      const path = { params: { path: { id: post.id } } }
      return decision === "approve"
        ? unwrap(api.POST("/api/v1/posts/{id}/approve", { ...path, body: note.trim() === "" ? {} : { note } }))
        : unwrap(api.POST("/api/v1/posts/{id}/request-changes", { ...path, body: { note } }))
    },
    onSuccess: async (decided, decision) => {
      setNote("")
      onDecided(decision, decided)
      await queryClient.invalidateQueries({ queryKey: postsKey })
    }
  })
  const noteError = decide.error instanceof ApiError ? decide.error.about("note") : undefined
  return (
    <div className="stack">
      <div className={`field approval-note${noteError === undefined ? "" : " field-invalid"}`}>
        <label htmlFor={`${id}-note`}>Note for the author</label>
        <textarea
          id={`${id}-note`}
          value={note}
          onChange={(event) => setNote(event.currentTarget.value)}
          aria-describedby={`${id}-hint${noteError === undefined ? "" : ` ${id}-error`}`}
          aria-invalid={noteError === undefined ? undefined : true}
        />
        <p className="field-hint" id={`${id}-hint`}>Optional when approving; say what to change when sending it back.</p>
        {noteError === undefined ? null : <p className="field-error" id={`${id}-error`}>{noteError}</p>}
      </div>
      {noteError === undefined ? <ErrorMessage error={decide.error} /> : null}
      <div className="form-actions">
        <Button
          variant="primary"
          onClick={() => decide.mutate("approve")}
          busy={decide.isPending && decide.variables === "approve"}
          disabled={decide.isPending}
          aria-label={`Approve ${label}`}
        >
          Approve
        </Button>
        <Button
          onClick={() => decide.mutate("request-changes")}
          busy={decide.isPending && decide.variables === "request-changes"}
          disabled={decide.isPending}
          aria-label={`Request changes to ${label}`}
        >
          Request changes
        </Button>
      </div>
    </div>
  )
}
