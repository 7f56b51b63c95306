import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useState } from "react"
import { api, unwrap } from "../../api/client.ts"
import { Banner, ErrorMessage } from "../../components/Banner.tsx"
import { Button } from "../../components/Button.tsx"
import { ConfirmDialog } from "../../components/Dialog.tsx"
import { NetworkIcon } from "../../components/NetworkIcon.tsx"
import { Table } from "../../components/Table.tsx"
import { when } from "../../components/when.ts"
import { type Account, accountsQuery, knownMethod, type Network, useConnect } from "./connect.ts"

// The workspace's accounts: network, name, status (with why one needs reconnecting), and per account
// reconnect (through the same consent flow as connecting) and disconnect (after confirmation).
export const AccountList = ({ accounts, networks }: {
  readonly accounts: ReadonlyArray<Account>
  readonly networks: ReadonlyArray<Network>
}) => {
  const queryClient = useQueryClient()
  const [leaving, setLeaving] = useState<Account | undefined>(undefined)
  const [left, setLeft] = useState<string | undefined>(undefined)
  const reconnect = useConnect()
  const disconnect = useMutation({
    mutationFn: (account: Account) => unwrap(api.DELETE("/api/v1/accounts/{id}", { params: { path: { id: account.id } } })),
    onSuccess: (_, account) => {
      setLeaving(undefined)
      setLeft(`@${account.username} on ${networkName(networks, account.platform)} is disconnected.`)
      return queryClient.invalidateQueries({ queryKey: accountsQuery.queryKey })
    }
  })
  const close = () => {
    setLeaving(undefined)
    disconnect.reset()
  }
  return (
    <>
      {left === undefined ? null : <Banner tone="success"><p>{left}</p></Banner>}
      <ErrorMessage error={reconnect.error} />
      <Table
        caption="Connected accounts"
        captionHidden
        rows={accounts}
        rowKey={(account) => account.id}
        columns={[
          {
            header: "Account",
            cell: (account) => (
              <div className="account-cell">
                <NetworkIcon icon={networks.find((network) => network.key === account.platform)?.icon} />
                <div>
                  <strong className="account-username">@{account.username}</strong>
                  <span className="muted">
                    {account.displayName === null || account.displayName === account.username ? "" : `${account.displayName} · `}
                    {networkName(networks, account.platform)}
                  </span>
                </div>
              </div>
            )
          },
          { header: "Status", cell: (account) => <AccountStatus account={account} /> },
          { header: "Connected", cell: (account) => when(account.connectedAt) },
          {
            header: "Actions",
            align: "end",
            cell: (account) => {
              const network = networks.find((entry) => entry.key === account.platform)
              const label = `@${account.username} on ${networkName(networks, account.platform)}`
              return (
                <div className="row-actions">
                  {account.status === "needs_reconnect" && network !== undefined && knownMethod(network)
                    ? (
                      <Button
                        variant="primary"
                        aria-label={`Reconnect ${label}`}
                        busy={reconnect.isPending && reconnect.variables.network.key === network.key}
                        // The same account again: where the network asks which one (the sandbox), it is this one.
                        onClick={() => reconnect.mutate({ network, values: { username: account.username } })}
                      >
                        Reconnect
                      </Button>
                    )
                    : null}
                  <Button variant="quiet" aria-label={`Disconnect ${label}`} onClick={() => setLeaving(account)}>
                    Disconnect
                  </Button>
                </div>
              )
            }
          }
        ]}
      />
      <ConfirmDialog
        open={leaving !== undefined}
        title={leaving === undefined ? "" : `Disconnect @${leaving.username} on ${networkName(networks, leaving.platform)}?`}
        confirm="Disconnect account"
        busy={disconnect.isPending}
        onConfirm={() => leaving === undefined ? undefined : disconnect.mutate(leaving)}
        onClose={close}
      >
        <div className="stack">
          <ErrorMessage error={disconnect.error} />
          <p>
            Herald deletes its access to this account, so posts can no longer go out to it. You can connect it again
            later; its posts and history stay.
          </p>
        </div>
      </ConfirmDialog>
    </>
  )
}

const networkName = (networks: ReadonlyArray<Network>, key: string) => networks.find((network) => network.key === key)?.name ?? key

const AccountStatus = ({ account }: { readonly account: Account }) => {
  switch (account.status) {
    case "connected":
      return <span className="badge badge-success">Connected</span>
    case "needs_reconnect":
      return (
        <div className="status-cell">
          <span className="badge badge-error">Needs reconnecting</span>
          {account.statusReason === null ? null : <span className="status-reason">{account.statusReason}</span>}
        </div>
      )
    case "disconnected":
      return <span className="badge badge-muted">Disconnected</span>
  }
}
