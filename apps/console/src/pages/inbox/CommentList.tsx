import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { api, unwrap } from "../../api/client.ts"
import { ErrorMessage } from "../../components/Banner.tsx"
import { Button } from "../../components/Button.tsx"
import { NetworkIcon } from "../../components/NetworkIcon.tsx"
import { Empty, QueryState } from "../../components/Page.tsx"
import { when } from "../../components/when.ts"
import { type Comment, type InboxFilter, refreshInbox, useComments } from "./inboxQueries.ts"
import { ItemStatus } from "./ItemStatus.tsx"
import { accountName, type Directory, networkName, networkOf, personName } from "./people.ts"
import { ReplyForm } from "./ReplyForm.tsx"

// The comments tab: newest first, each with its answers from the account beneath it (when both are on the
// pages loaded), unread ones marked, answered in place.
export const CommentList = ({ filter, directory }: { readonly filter: InboxFilter; readonly directory: Directory }) => {
  const comments = useComments(filter)
  return (
    <QueryState query={comments} what="comments">
      {(data) => {
        const all = data.pages.flatMap((page) => page.data)
        if (all.length === 0) return <Empty><p>No comments here yet. New ones appear as the networks are read, about once a minute.</p></Empty>
        const shown = new Set(all.map((comment) => comment.id))
        const answers = (id: string) => all.filter((comment) => comment.reply === id).reverse()
        // An answer to a comment on these pages is shown under it, not on its own.
        const topLevel = all.filter((comment) => comment.reply === null || !shown.has(comment.reply) || !comment.outgoing)
        return (
          <div className="stack">
            <ul className="inbox-list" aria-label="Comments">
              {topLevel.map((comment) => (
                <li key={comment.id}>
                  <CommentItem comment={comment} answers={answers(comment.id).filter((answer) => answer.outgoing)} directory={directory} />
                </li>
              ))}
            </ul>
            {comments.hasNextPage
              ? (
                <div>
                  <Button onClick={() => void comments.fetchNextPage()} busy={comments.isFetchingNextPage}>Load older comments</Button>
                </div>
              )
              : null}
          </div>
        )
      }}
    </QueryState>
  )
}

const CommentItem = ({ comment, answers, directory }: {
  readonly comment: Comment
  readonly answers: ReadonlyArray<Comment>
  readonly directory: Directory
}) => {
  const queryClient = useQueryClient()
  const [replying, setReplying] = useState(false)
  const headingId = `comment-${comment.id}`
  const markRead = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/inbox/comments/{id}/read", { params: { path: { id: comment.id } } })),
    onSuccess: () => refreshInbox(queryClient)
  })
  const reply = async (text: string) => {
    await unwrap(api.POST("/api/v1/inbox/comments/{id}/reply", { params: { path: { id: comment.id } }, body: { text } }))
    // Answering it is reading it.
    if (!comment.read) await unwrap(api.POST("/api/v1/inbox/comments/{id}/read", { params: { path: { id: comment.id } } }))
    setReplying(false)
    await refreshInbox(queryClient)
  }
  const author = comment.outgoing ? accountName(directory, comment.accountId) : personName(comment.author)
  return (
    <article className={`inbox-item${comment.read ? "" : " inbox-unread"}`} aria-labelledby={headingId}>
      <header className="inbox-item-header">
        <NetworkIcon icon={networkOf(directory, comment.platform)?.icon} />
        <div>
          <h3 id={headingId} className="inbox-author">
            {comment.outgoing ? `Reply from ${author}` : `Comment by ${author}`}
            {comment.read ? null : <span className="badge">Unread</span>}
          </h3>
          <p className="muted">
            {networkName(directory, comment.platform)}, to {accountName(directory, comment.accountId)} · <time dateTime={comment.createdAt}>{when(comment.createdAt)}</time>
          </p>
        </div>
      </header>
      <p className="inbox-text">{comment.text}</p>
      <ItemStatus status={comment.status} failure={comment.failure} />
      {answers.length === 0 ? null : (
        <ul className="inbox-answers" aria-label={`Replies to ${author}`}>
          {answers.map((answer) => (
            <li key={answer.id} className="inbox-answer">
              <p className="muted">
                {accountName(directory, answer.accountId)} replied · <time dateTime={answer.createdAt}>{when(answer.createdAt)}</time>
              </p>
              <p className="inbox-text">{answer.text}</p>
              <ItemStatus status={answer.status} failure={answer.failure} />
            </li>
          ))}
        </ul>
      )}
      <ErrorMessage error={markRead.error} />
      {replying
        ? <ReplyForm label={`Reply to ${author}`} send={reply} onCancel={() => setReplying(false)} />
        : (
          <div className="form-actions">
            <Button onClick={() => setReplying(true)} aria-label={`Reply to ${author}`}>Reply</Button>
            {comment.read ? null : (
              <Button variant="quiet" busy={markRead.isPending} onClick={() => markRead.mutate()}>
                Mark as read
                <span className="visually-hidden">: the comment by {author}</span>
              </Button>
            )}
            {comment.permalink === null ? null : (
              <a className="button button-quiet" href={comment.permalink} target="_blank" rel="noreferrer">
                Open on {networkName(directory, comment.platform)}
              </a>
            )}
          </div>
        )}
    </article>
  )
}
