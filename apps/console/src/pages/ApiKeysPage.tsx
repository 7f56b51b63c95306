import { useQuery } from "@tanstack/react-query"
import { useState } from "react"
import { api, unwrap } from "../api/client.ts"
import { Button } from "../components/Button.tsx"
import { ConfirmRowAction } from "../components/ConfirmRowAction.tsx"
import { Page, QueryState } from "../components/Page.tsx"
import { Table } from "../components/Table.tsx"
import { when } from "../components/when.ts"
import { CreateKeyDialog } from "./settings/CreateKeyDialog.tsx"
import { roleName } from "./settings/roles.ts"

const keysKey = ["keys"] as const

type Key = Awaited<ReturnType<typeof listKeys>>[number]
const listKeys = () => unwrap(api.GET("/api/v1/keys"))

/** "hrld_…a1b2": enough of a key to tell it apart, never the key. */
const keyEnds = (key: { readonly prefix: string; readonly lastFour: string }) => `${key.prefix}…${key.lastFour}`

// Settings > API keys: the workspace's keys (the API lets owners and admins see them; others read its
// message), making one (shown once), and revoking one after a confirmation.
export const ApiKeysPage = () => {
  const keys = useQuery({ queryKey: keysKey, queryFn: listKeys })
  const [creating, setCreating] = useState(false)
  const [revoking, setRevoking] = useState<Key | undefined>(undefined)
  return (
    <Page
      title="API keys"
      description="Programs use a key to call Herald's API as a member of this workspace, with that member's role."
      // Offered once the API has shown the keys: whoever may list them may make them.
      {...(keys.isSuccess ? { actions: <Button variant="primary" onClick={() => setCreating(true)}>Create key</Button> } : {})}
    >
      <QueryState
        query={keys}
        what="API keys"
        empty={
          <>
            <p>No API keys yet.</p>
            <p>Create one for each program that calls Herald, so each can be revoked on its own.</p>
          </>
        }
      >
        {(rows) => (
          <Table
            caption="API keys"
            captionHidden
            rows={rows}
            rowKey={(row) => row.id}
            columns={[
              { header: "Name", cell: (row) => row.name },
              { header: "Key", cell: (row) => <code className="key-ends">{keyEnds(row)}</code> },
              {
                header: "Acts as",
                cell: (row) =>
                  row.member === null
                    ? <span>Workspace key <span className="muted">(may do anything)</span></span>
                    : <span>{row.member.email} <span className="badge">{roleName(row.member.role)}</span></span>
              },
              { header: "Created", cell: (row) => when(row.createdAt) },
              { header: "Last used", cell: (row) => row.lastUsedAt === null ? <span className="muted">Never</span> : when(row.lastUsedAt) },
              {
                header: "Status",
                cell: (row) =>
                  row.revokedAt === null
                    ? <span className="badge badge-success">Active</span>
                    : <span className="badge badge-muted">Revoked {when(row.revokedAt)}</span>
              },
              {
                header: "Actions",
                align: "end",
                cell: (row) =>
                  row.revokedAt === null
                    ? <Button variant="danger" onClick={() => setRevoking(row)} aria-label={`Revoke key ${row.name} (${keyEnds(row)})`}>Revoke</Button>
                    : null
              }
            ]}
          />
        )}
      </QueryState>
      <CreateKeyDialog open={creating} onClose={() => setCreating(false)} />
      <ConfirmRowAction
        row={revoking}
        title="Revoke this key?"
        confirm="Revoke key"
        action={(id) => unwrap(api.POST("/api/v1/keys/{id}/revoke", { params: { path: { id } } }))}
        listKey={keysKey}
        onClose={() => setRevoking(undefined)}
      >
        {(key) => (
          <>
            Programs using <strong>{key.name}</strong> (<code>{keyEnds(key)}</code>) will be refused at once. This
            cannot be undone: they will need a new key.
          </>
        )}
      </ConfirmRowAction>
    </Page>
  )
}
