import { useQuery } from "@tanstack/react-query"
import { type KeyboardEvent, useRef, useState } from "react"
import { Page, QueryState } from "../components/Page.tsx"
import { accountsQuery, networksQuery } from "./accounts/connect.ts"
import { CommentList } from "./inbox/CommentList.tsx"
import { ConversationList } from "./inbox/ConversationList.tsx"
import { InboxFilters } from "./inbox/InboxFilters.tsx"
import { type InboxFilter, unreadLabel, unreadQuery } from "./inbox/inboxQueries.ts"
import "./inbox/inbox.css"

type Tab = "comments" | "conversations"
const tabs: ReadonlyArray<{ readonly id: Tab; readonly label: string }> = [
  { id: "comments", label: "Comments" },
  { id: "conversations", label: "Conversations" }
]

// The inbox: comments and direct messages across the workspace's accounts, newest first, narrowed to an
// account or a network, with what is unread counted per tab and per account, answered in place.
export const InboxPage = () => {
  const accounts = useQuery(accountsQuery)
  const networks = useQuery(networksQuery)
  const unread = useQuery(unreadQuery)
  const [tab, setTab] = useState<Tab>("comments")
  const [filter, setFilter] = useState<InboxFilter>({})
  const tabButtons = useRef<Array<HTMLButtonElement | null>>([])
  // Arrow keys move between the tabs, as a tab list does.
  const onKeyDown = (event: KeyboardEvent, index: number) => {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0
    if (step === 0) return
    event.preventDefault()
    const next = tabs[(index + step + tabs.length) % tabs.length]!
    setTab(next.id)
    tabButtons.current[tabs.indexOf(next)]?.focus()
  }
  return (
    <Page title="Inbox" description="Comments on your accounts' posts and their direct messages, from every network that offers them.">
      <QueryState query={networks} what="networks">
        {(allNetworks) => (
          <QueryState
            query={accounts}
            what="accounts"
            isEmpty={(rows) => !rows.some((account) => allNetworks.some((network) => network.key === account.platform && network.capabilities.inbox))}
            empty={<p>None of your accounts is on a network whose comments or messages Herald can read. Connect one on the Accounts page.</p>}
          >
            {(allAccounts) => {
              // Only networks with an inbox, and their accounts, can be chosen.
              const withInbox = allNetworks.filter((network) => network.capabilities.inbox && allAccounts.some((account) => account.platform === network.key))
              const inboxAccounts = allAccounts.filter((account) => withInbox.some((network) => network.key === account.platform))
              const directory = { accounts: allAccounts, networks: allNetworks }
              const counts = unread.data
              return (
                <div className="stack">
                  <InboxFilters accounts={inboxAccounts} networks={withInbox} unread={counts?.accounts ?? []} filter={filter} onChange={setFilter} />
                  <div role="tablist" aria-label="Inbox" className="inbox-tabs">
                    {tabs.map((entry, index) => {
                      const label = unreadLabel(counts?.[entry.id])
                      return (
                        <button
                          key={entry.id}
                          ref={(element) => {
                            tabButtons.current[index] = element
                          }}
                          type="button"
                          role="tab"
                          id={`inbox-tab-${entry.id}`}
                          aria-selected={tab === entry.id}
                          aria-controls={`inbox-panel-${entry.id}`}
                          tabIndex={tab === entry.id ? 0 : -1}
                          className="inbox-tab"
                          onClick={() => setTab(entry.id)}
                          onKeyDown={(event) => onKeyDown(event, index)}
                        >
                          {entry.label}
                          {label === undefined ? null : <span className="badge">{label}</span>}
                        </button>
                      )
                    })}
                  </div>
                  <div role="tabpanel" id={`inbox-panel-${tab}`} aria-labelledby={`inbox-tab-${tab}`} tabIndex={0}>
                    {tab === "comments"
                      ? <CommentList filter={filter} directory={directory} />
                      : <ConversationList filter={filter} directory={directory} />}
                  </div>
                </div>
              )
            }}
          </QueryState>
        )}
      </QueryState>
    </Page>
  )
}
