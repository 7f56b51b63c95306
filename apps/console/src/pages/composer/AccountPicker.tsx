import { NetworkIcon } from "../../components/NetworkIcon.tsx"
import type { Account, Network } from "./draft.ts"
import type { About } from "./SchemaField.tsx"

// Which accounts the post goes to: one box per connected account, with its network's mark and name.
export const AccountPicker = ({ accounts, networks, chosen, onChange, about }: {
  readonly accounts: ReadonlyArray<Account>
  readonly networks: ReadonlyArray<Network>
  readonly chosen: ReadonlyArray<string>
  readonly onChange: (accountIds: ReadonlyArray<string>) => void
  readonly about: About
}) => {
  const messages = [...about("accountIds"), ...chosen.flatMap((_, index) => about(`accountIds.${index}`))]
  return (
    <fieldset className="composer-section account-picker" aria-describedby={messages.length === 0 ? undefined : "accounts-error"}>
      <legend>Accounts</legend>
      <div className="account-choices">
        {accounts.map((account) => {
          const network = networks.find((entry) => entry.key === account.platform)
          const checked = chosen.includes(account.id)
          return (
            <label key={account.id} className={`account-choice${checked ? " account-choice-on" : ""}`}>
              <input
                type="checkbox"
                checked={checked}
                onChange={(event) =>
                  onChange(event.currentTarget.checked ? [...chosen, account.id] : chosen.filter((id) => id !== account.id))}
              />
              <NetworkIcon icon={network?.icon} />
              <span>
                @{account.username} <span className="muted">on {network?.name ?? account.platform}</span>
              </span>
            </label>
          )
        })}
      </div>
      {messages.length === 0 ? null : (
        <div id="accounts-error" className="field-error">{messages.map((message) => <p key={message}>{message}</p>)}</div>
      )}
    </fieldset>
  )
}
