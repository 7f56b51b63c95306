import { useMutation, useQueryClient, type UseQueryResult } from "@tanstack/react-query"
import { useState } from "react"
import { api, unwrap } from "../../api/client.ts"
import { ErrorMessage } from "../../components/Banner.tsx"
import { Button } from "../../components/Button.tsx"
import { CopyButton } from "../../components/CopyButton.tsx"
import { ConfirmDialog } from "../../components/Dialog.tsx"
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
      <Withdraw invitation={withdrawing} onClose={() => setWithdrawing(undefined)} />
    </>
  )
}

const Withdraw = ({ invitation, onClose }: { readonly invitation: Invitation | undefined; readonly onClose: () => void }) => {
  const queryClient = useQueryClient()
  const withdraw = useMutation({
    mutationFn: (id: string) => unwrap(api.DELETE("/api/v1/members/invitations/{id}", { params: { path: { id } } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: ["invitations"] })
      close()
    }
  })
  const close = () => {
    withdraw.reset()
    onClose()
  }
  return (
    <ConfirmDialog
      open={invitation !== undefined}
      title="Withdraw this invitation?"
      confirm="Withdraw invitation"
      busy={withdraw.isPending}
      onConfirm={() => invitation !== undefined && withdraw.mutate(invitation.id)}
      onClose={close}
    >
      {invitation === undefined ? null : (
        <div className="stack">
          <ErrorMessage error={withdraw.error} />
          <p>The link sent to <strong>{invitation.email}</strong> stops working at once.</p>
        </div>
      )}
    </ConfirmDialog>
  )
}
