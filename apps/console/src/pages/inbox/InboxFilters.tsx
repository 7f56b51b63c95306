import { SelectField } from "../../components/Field.tsx"
import type { Account, Network } from "../accounts/connect.ts"
import type { InboxFilter } from "./inboxQueries.ts"
import { networkName } from "./people.ts"

type Unread = { readonly accountId: string; readonly platform: string; readonly comments: number; readonly conversations: number }

// Narrowing the inbox to one account or one network, each choice with what it has unread.
export const InboxFilters = ({ accounts, networks, unread, filter, onChange }: {
  readonly accounts: ReadonlyArray<Account>
  readonly networks: ReadonlyArray<Network>
  readonly unread: ReadonlyArray<Unread>
  readonly filter: InboxFilter
  readonly onChange: (filter: InboxFilter) => void
}) => {
  const count = (matches: (entry: Unread) => boolean) =>
    unread.filter(matches).reduce((sum, entry) => sum + entry.comments + entry.conversations, 0)
  const suffix = (total: number) => (total === 0 ? "" : `, ${total} unread`)
  const directory = { accounts, networks }
  return (
    <div className="form-row inbox-filters">
      <SelectField
        label="Account"
        value={filter.accountId ?? ""}
        onChange={(event) => onChange({ ...filter, accountId: event.currentTarget.value === "" ? undefined : event.currentTarget.value })}
      >
        <option value="">All accounts</option>
        {accounts.map((account) => (
          <option key={account.id} value={account.id}>
            @{account.username} ({networkName(directory, account.platform)}){suffix(count((entry) => entry.accountId === account.id))}
          </option>
        ))}
      </SelectField>
      <SelectField
        label="Network"
        value={filter.platform ?? ""}
        onChange={(event) => onChange({ ...filter, platform: event.currentTarget.value === "" ? undefined : event.currentTarget.value })}
      >
        <option value="">All networks</option>
        {networks.map((network) => (
          <option key={network.key} value={network.key}>
            {network.name}{suffix(count((entry) => entry.platform === network.key))}
          </option>
        ))}
      </SelectField>
    </div>
  )
}
