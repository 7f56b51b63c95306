import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { api, unwrap } from "../../api/client.ts"
import { ErrorMessage } from "../../components/Banner.tsx"
import { Button } from "../../components/Button.tsx"
import { NetworkIcon } from "../../components/NetworkIcon.tsx"
import { Empty, QueryState } from "../../components/Page.tsx"
import { when } from "../../components/when.ts"
import { type Conversation, type InboxFilter, refreshInbox, unreadLabel, useConversations, useMessages } from "./inboxQueries.ts"
import { ItemStatus } from "./ItemStatus.tsx"
import { accountName, type Directory, networkName, networkOf, personName } from "./people.ts"
import { ReplyForm } from "./ReplyForm.tsx"

// The conversations tab: the most recent first; opening one shows its messages (oldest at the top, as a
// chat reads), marks it read, and offers an answer in place.
export const ConversationList = ({ filter, directory }: { readonly filter: InboxFilter; readonly directory: Directory }) => {
  const conversations = useConversations(filter)
  return (
    <QueryState query={conversations} what="conversations">
      {(data) => {
        const all = data.pages.flatMap((page) => page.data)
        if (all.length === 0) return <Empty><p>No conversations here yet. Direct messages appear as the networks are read.</p></Empty>
        return (
          <div className="stack">
            <ul className="inbox-list" aria-label="Conversations">
              {all.map((conversation) => (
                <li key={conversation.id}>
                  <ConversationItem conversation={conversation} directory={directory} />
                </li>
              ))}
            </ul>
            {conversations.hasNextPage
              ? (
                <div>
                  <Button onClick={() => void conversations.fetchNextPage()} busy={conversations.isFetchingNextPage}>
                    Load older conversations
                  </Button>
                </div>
              )
              : null}
          </div>
        )
      }}
    </QueryState>
  )
}

const ConversationItem = ({ conversation, directory }: { readonly conversation: Conversation; readonly directory: Directory }) => {
  const queryClient = useQueryClient()
  const [open, setOpen] = useState(false)
  const who = personName(conversation.counterpart)
  const headingId = `conversation-${conversation.id}`
  const markRead = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/inbox/conversations/{id}/read", { params: { path: { id: conversation.id } } })),
    onSuccess: () => refreshInbox(queryClient)
  })
  const toggle = () => {
    // Opening it is reading what it holds so far.
    if (!open && conversation.unread > 0) markRead.mutate()
    setOpen(!open)
  }
  const unread = unreadLabel(conversation.unread)
  return (
    <article className={`inbox-item${unread === undefined ? "" : " inbox-unread"}`} aria-labelledby={headingId}>
      <header className="inbox-item-header">
        <NetworkIcon icon={networkOf(directory, conversation.platform)?.icon} />
        <div>
          <h3 id={headingId} className="inbox-author">
            Conversation with {who}
            {unread === undefined ? null : <span className="badge">{unread}</span>}
          </h3>
          <p className="muted">
            {networkName(directory, conversation.platform)}, {accountName(directory, conversation.accountId)} · last message{" "}
            <time dateTime={conversation.lastMessageAt}>{when(conversation.lastMessageAt)}</time>
          </p>
        </div>
      </header>
      <ErrorMessage error={markRead.error} />
      <div className="form-actions">
        <Button onClick={toggle} aria-expanded={open} aria-controls={`${headingId}-thread`}>
          {open ? "Close" : "Open"}
          <span className="visually-hidden"> the conversation with {who}</span>
        </Button>
      </div>
      {open ? <Thread id={`${headingId}-thread`} conversation={conversation} who={who} directory={directory} /> : null}
    </article>
  )
}

const Thread = ({ id, conversation, who, directory }: {
  readonly id: string
  readonly conversation: Conversation
  readonly who: string
  readonly directory: Directory
}) => {
  const queryClient = useQueryClient()
  const messages = useMessages(conversation.id)
  const send = async (text: string) => {
    await unwrap(api.POST("/api/v1/inbox/conversations/{id}/messages", { params: { path: { id: conversation.id } }, body: { text } }))
    await refreshInbox(queryClient)
  }
  return (
    <div id={id} className="stack inbox-thread">
      <QueryState query={messages} what="messages">
        {(data) => {
          // The API pages newest first; a conversation reads oldest first.
          const all = data.pages.flatMap((page) => page.data).slice().reverse()
          return (
            <>
              {messages.hasNextPage
                ? (
                  <div>
                    <Button onClick={() => void messages.fetchNextPage()} busy={messages.isFetchingNextPage}>Load earlier messages</Button>
                  </div>
                )
                : null}
              <ol className="inbox-messages" aria-label={`Messages with ${who}`}>
                {all.map((message) => (
                  <li key={message.id} className={message.outgoing ? "inbox-message inbox-message-own" : "inbox-message"}>
                    <p className="muted">
                      {message.outgoing ? accountName(directory, conversation.accountId) : personName(message.from)} ·{" "}
                      <time dateTime={message.createdAt}>{when(message.createdAt)}</time>
                    </p>
                    <p className="inbox-text">{message.text}</p>
                    {message.attachments === 0 ? null : (
                      <p className="muted">{message.attachments === 1 ? "1 attachment" : `${message.attachments} attachments`} (open it on the network)</p>
                    )}
                    <ItemStatus status={message.status} failure={message.failure} />
                  </li>
                ))}
              </ol>
            </>
          )
        }}
      </QueryState>
      <ReplyForm label={`Message to ${who}`} send={send} />
    </div>
  )
}
