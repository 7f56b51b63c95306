import { useInfiniteQuery } from "@tanstack/react-query"
import { Link } from "@tanstack/react-router"
import { Button } from "../../components/Button.tsx"
import { SelectField, TextField } from "../../components/Field.tsx"
import { QueryState } from "../../components/Page.tsx"
import { Table } from "../../components/Table.tsx"
import { listQuery } from "./calendarQueries.ts"
import { NetworkMarks, StatusBadge } from "./PostChip.tsx"
import { type Account, apiStatuses, movable, type Network, type Post, statusWords, timeOf } from "./status.ts"
import { addDays, isDate, startOfDay, when } from "../../components/zone.ts"

export interface ListSearch {
  readonly status?: string | undefined
  readonly account?: string | undefined
  /** Days in the workspace's zone, both included. */
  readonly from?: string | undefined
  readonly to?: string | undefined
}

const pageSize = 20

export const accountName = (account: Account | undefined, id: string) =>
  account === undefined ? id : `${account.displayName ?? account.username} (${account.platform})`

/**
 * Every post by time, a page at a time ("Load more" follows the API's cursor, so a workspace of any size
 * lists as fast as a small one), filtered by status, account and days by the API.
 */
export const ListView = ({ search, zone, accounts, networks, onSearch, onMove }: {
  readonly search: ListSearch
  readonly zone: string
  readonly accounts: ReadonlyArray<Account>
  readonly networks: ReadonlyMap<string, Network>
  readonly onSearch: (next: ListSearch) => void
  readonly onMove: (post: Post) => void
}) => {
  const posts = useInfiniteQuery(listQuery({
    status: search.status,
    accountId: search.account,
    from: search.from === undefined ? undefined : startOfDay(zone, search.from).toISOString(),
    to: search.to === undefined ? undefined : startOfDay(zone, addDays(search.to, 1)).toISOString()
  }, pageSize))
  const byId = new Map(accounts.map((account) => [account.id, account]))
  const change = (name: keyof ListSearch, value: string) => onSearch({ ...search, [name]: value === "" ? undefined : value })
  return (
    <div className="stack">
      <form className="calendar-filters" aria-label="Filters" onSubmit={(event) => event.preventDefault()}>
        <SelectField label="Status" value={search.status ?? ""} onChange={(event) => change("status", event.currentTarget.value)}>
          <option value="">Any status</option>
          {apiStatuses.map((status) => <option key={status} value={status}>{statusWords[status]}</option>)}
        </SelectField>
        <SelectField label="Account" value={search.account ?? ""} onChange={(event) => change("account", event.currentTarget.value)}>
          <option value="">Any account</option>
          {accounts.map((account) => <option key={account.id} value={account.id}>{accountName(account, account.id)}</option>)}
        </SelectField>
        <TextField
          label="From"
          type="date"
          value={search.from ?? ""}
          onChange={(event) => change("from", isDate(event.currentTarget.value) ? event.currentTarget.value : "")}
        />
        <TextField
          label="To"
          type="date"
          value={search.to ?? ""}
          onChange={(event) => change("to", isDate(event.currentTarget.value) ? event.currentTarget.value : "")}
        />
      </form>
      <QueryState query={posts} what="posts">
        {(data) => {
          const rows = data.pages.flatMap((page) => page.data)
          return (
            <>
              {rows.length === 0
                ? <div className="empty"><p>No posts match these filters.</p></div>
                : (
                  <Table
                    caption="Posts"
                    captionHidden
                    rows={rows}
                    rowKey={(row) => row.id}
                    columns={[
                      { header: "When", cell: (row) => <When post={row} zone={zone} /> },
                      {
                        header: "Post",
                        cell: (row) => (
                          <Link to="/posts/$id" params={{ id: row.id }} className="calendar-list-text">
                            {row.content.trim() === "" ? "(media only)" : row.content}
                          </Link>
                        )
                      },
                      { header: "Networks", cell: (row) => <NetworkMarks post={row} networks={networks} /> },
                      {
                        header: "Accounts",
                        cell: (row) => row.targets.map((target) => accountName(byId.get(target.accountId), target.accountId)).join(", ")
                      },
                      { header: "Status", cell: (row) => <StatusBadge post={row} /> },
                      {
                        header: "Actions",
                        align: "end",
                        cell: (row) => movable(row) ? <Button onClick={() => onMove(row)}>Move…</Button> : null
                      }
                    ]}
                  />
                )}
              {posts.hasNextPage
                ? (
                  <div className="pager">
                    <Button busy={posts.isFetchingNextPage} onClick={() => void posts.fetchNextPage()}>Load more</Button>
                  </div>
                )
                : null}
            </>
          )
        }}
      </QueryState>
    </div>
  )
}

const When = ({ post, zone }: { readonly post: Post; readonly zone: string }) => {
  const at = timeOf(post)
  return <time dateTime={at.toISOString()}>{when(zone, at)}</time>
}
