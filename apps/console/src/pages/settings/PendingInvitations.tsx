import type { UseQueryResult } from "@tanstack/react-query"
import { useState } from "react"
import { api, unwrap } from "../../api/client.ts"
import { Button } from "../../components/Button.tsx"
import { CopyButton } from "../../components/CopyButton.tsx"
import { ConfirmRowAction } from "../../components/ConfirmRowAction.tsx"
import { QueryState } from "../../components/Page.tsx"
import { Table } from "../../components/Table.tsx"
import { when } from "../../components/when.ts"
import { roleName } from "./roles.ts"

interface Invitation {
  readonly id: string
  readonly email: string
  readonly role: string
  readonly url: string
  readonly expiresAt: string
  readonly createdAt: string
}

// The invitations not yet accepted, withdrawn or expired: each link can be copied again, or withdrawn.
export const PendingInvitations = ({ query }: { readonly query: UseQueryResult<ReadonlyArray<Invitation>> }) => {
  const [withdrawing, setWithdrawing] = useState<Invitation | undefined>(undefined)
  return (
    <>
      <QueryState query={query} what="invitations" empty={<p>No pending invitations.</p>}>
        {(rows) => (
          <Table
            caption="Pending invitations"
            captionHidden
            rows={rows}
            rowKey={(row) => row.id}
            columns={[
              { header: "E-mail", cell: (row) => row.email },
              { header: "Role", cell: (row) => roleName(row.role) },
              { header: "Invited", cell: (row) => when(row.createdAt) },
              { header: "Expires", cell: (row) => when(row.expiresAt) },
              {
                header: "Actions",
                align: "end",
                cell: (row) => (
                  <div className="row-actions">
                    <CopyButton value={row.url} label={`Copy link for ${row.email}`} />
                    <Button variant="danger" onClick={() => setWithdrawing(row)} aria-label={`Withdraw the invitation of ${row.email}`}>
                      Withdraw
                    </Button>
                  </div>
                )
              }
            ]}
          />
        )}
      </QueryState>
      <ConfirmRowAction
        row={withdrawing}
        title="Withdraw this invitation?"
        confirm="Withdraw invitation"
        action={(id) => unwrap(api.DELETE("/api/v1/members/invitations/{id}", { params: { path: { id } } }))}
        listKey={["invitations"]}
        onClose={() => setWithdrawing(undefined)}
      >
        {(invitation) => <>The link sent to <strong>{invitation.email}</strong> stops working at once.</>}
      </ConfirmRowAction>
    </>
  )
}
