import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query"
import type { ReactNode } from "react"
import { ErrorMessage } from "./Banner.tsx"
import { ConfirmDialog } from "./Dialog.tsx"

/**
 * "Are you sure?" for an action on one row of a list (revoke a key, remove a member): open while `row` is
 * set; confirming runs `action(row.id)`, refreshes the list under `listKey` and closes, or shows the API's
 * message. `children` says what the action does to this row.
 */
export const ConfirmRowAction = <Row extends { readonly id: string }>({
  row,
  title,
  confirm,
  action,
  listKey,
  onClose,
  children
}: {
  readonly row: Row | undefined
  readonly title: string
  readonly confirm: string
  readonly action: (id: string) => Promise<unknown>
  readonly listKey: QueryKey
  readonly onClose: () => void
  readonly children: (row: Row) => ReactNode
}) => {
  const queryClient = useQueryClient()
  const run = useMutation({
    mutationFn: action,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: listKey })
      close()
    }
  })
  const close = () => {
    run.reset()
    onClose()
  }
  return (
    <ConfirmDialog
      open={row !== undefined}
      title={title}
      confirm={confirm}
      busy={run.isPending}
      onConfirm={() => row !== undefined && run.mutate(row.id)}
      onClose={close}
    >
      {row === undefined ? null : (
        <div className="stack">
          <ErrorMessage error={run.error} />
          <p>{children(row)}</p>
        </div>
      )}
    </ConfirmDialog>
  )
}
