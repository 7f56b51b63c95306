import { useQuery } from "@tanstack/react-query"
import { useState } from "react"
import { Button } from "../components/Button.tsx"
import { ConfirmRowAction } from "../components/ConfirmRowAction.tsx"
import { Page, QueryState } from "../components/Page.tsx"
import { Table } from "../components/Table.tsx"
import { when } from "../components/when.ts"
import { disconnect, type Grant, grantsKey, listGrants } from "./assistants/grants.ts"
import { McpAddress } from "./assistants/McpAddress.tsx"
import { roleName } from "./settings/roles.ts"
import "./assistants/assistants.css"

// Settings > Connected assistants: the assistants people allowed through the consent page (OAuth grants),
// each acting as the member who allowed it, whether that member let it publish without approval, and
// disconnecting one after a confirmation.
export const AssistantsPage = () => {
  const grants = useQuery({ queryKey: grantsKey, queryFn: listGrants })
  const [disconnecting, setDisconnecting] = useState<Grant | undefined>(undefined)
  return (
    <Page
      title="Connected assistants"
      description="AI assistants that use Herald through its MCP server, each as the member who allowed it, with that member's role."
    >
      <McpAddress />
      <QueryState
        query={grants}
        what="connected assistants"
        empty={<p>No assistants connected yet.</p>}
      >
        {(rows) => (
          <Table
            caption="Connected assistants"
            captionHidden
            rows={rows}
            rowKey={(row) => row.id}
            columns={[
              { header: "Assistant", cell: (row) => <strong>{row.client.name}</strong> },
              { header: "Acts as", cell: (row) => <span>{row.email} <span className="badge">{roleName(row.role)}</span></span> },
              {
                header: "Publishing",
                cell: (row) => row.publishesDirectly ? "Without approval" : <span className="muted">After approval</span>
              },
              { header: "Connected", cell: (row) => when(row.createdAt) },
              { header: "Last used", cell: (row) => row.lastUsedAt === null ? <span className="muted">Never</span> : when(row.lastUsedAt) },
              {
                header: "Actions",
                align: "end",
                cell: (row) => (
                  <Button variant="danger" onClick={() => setDisconnecting(row)} aria-label={`Disconnect ${row.client.name} (${row.email})`}>
                    Disconnect
                  </Button>
                )
              }
            ]}
          />
        )}
      </QueryState>
      <ConfirmRowAction
        row={disconnecting}
        title="Disconnect this assistant?"
        confirm="Disconnect"
        action={disconnect}
        listKey={grantsKey}
        onClose={() => setDisconnecting(undefined)}
      >
        {(grant) => (
          <>
            <strong>{grant.client.name}</strong>, acting as {grant.email}, will be refused from its next request. To use
            it again, connect it again from the assistant.
          </>
        )}
      </ConfirmRowAction>
    </Page>
  )
}
