import * as PostStatus from "@herald/domain/PostStatus"
import { useMutation, useQueryClient } from "@tanstack/react-query"
import { Link, useNavigate } from "@tanstack/react-router"
import { useRef, useState } from "react"
import { api, unwrap } from "../../api/client.ts"
import { ErrorMessage } from "../../components/Banner.tsx"
import { Button } from "../../components/Button.tsx"
import { ConfirmDialog } from "../../components/Dialog.tsx"
import { duplicateBody } from "./duplicate.ts"
import { type Post, postsKey } from "./postQuery.ts"
import { useNetworks } from "./useNetworks.ts"

// Which actions a post offers in its status, from the domain's post lifecycle (PostStatus, the table the
// API's services move posts by; decision 0085); the API still decides, and its refusal is shown in its words.

export const PostActions = ({ post }: { readonly post: Post }) => {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const networks = useNetworks()
  const [deleting, setDeleting] = useState(false)
  const path = { params: { path: { id: post.id } } }
  // One key per intended copy, kept across a double click or a retry of the same copy, so it makes one post.
  const duplicateKey = useRef<string | undefined>(undefined)

  const changed = (next: Post) => {
    queryClient.setQueryData([...postsKey, post.id], next)
    return queryClient.invalidateQueries({ queryKey: postsKey })
  }
  const retry = useMutation({ mutationFn: () => unwrap(api.POST("/api/v1/posts/{id}/retry", path)), onSuccess: changed })
  const submit = useMutation({ mutationFn: () => unwrap(api.POST("/api/v1/posts/{id}/submit", path)), onSuccess: changed })
  const duplicate = useMutation({
    mutationFn: () => {
      duplicateKey.current ??= crypto.randomUUID()
      return unwrap(api.POST("/api/v1/posts", {
        body: duplicateBody(post, networks.list),
        headers: { "Idempotency-Key": duplicateKey.current }
      }))
    },
    onSuccess: async (copy) => {
      duplicateKey.current = undefined
      await queryClient.invalidateQueries({ queryKey: postsKey })
      await navigate({ to: "/posts/$id", params: { id: copy.id } })
    }
  })
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE("/api/v1/posts/{id}", path)),
    onSuccess: async () => {
      setDeleting(false)
      queryClient.removeQueries({ queryKey: [...postsKey, post.id] })
      await queryClient.invalidateQueries({ queryKey: postsKey })
      await navigate({ to: "/calendar" })
    }
  })

  return (
    <div className="stack">
      <div className="form-actions">
        {PostStatus.isEditable(post.status)
          ? <Link to="/posts/$id/edit" params={{ id: post.id }} className="button button-primary">Edit</Link>
          : null}
        {PostStatus.onRetry(post.status) !== undefined
          ? <Button variant="primary" onClick={() => retry.mutate()} busy={retry.isPending}>Retry failed targets</Button>
          : null}
        {PostStatus.canMove(post.status, PostStatus.awaiting_approval, "submit")
          ? <Button onClick={() => submit.mutate()} busy={submit.isPending}>Submit for approval</Button>
          : null}
        <Button onClick={() => duplicate.mutate()} busy={duplicate.isPending}>Duplicate as draft</Button>
        {PostStatus.isDeletable(post.status) ? <Button variant="danger" onClick={() => setDeleting(true)}>Delete</Button> : null}
      </div>
      <ErrorMessage error={retry.error} />
      <ErrorMessage error={submit.error} />
      <ErrorMessage error={duplicate.error} />
      <ConfirmDialog
        open={deleting}
        title="Delete this post?"
        confirm="Delete post"
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => {
          setDeleting(false)
          remove.reset()
        }}
      >
        <p>
          Herald forgets the post and will not send it.{" "}
          {post.targets.some((target) => target.status === "published")
            ? "What is already out stays on the networks: delete it there."
            : null}
        </p>
        <ErrorMessage error={remove.error} />
      </ConfirmDialog>
    </div>
  )
}
