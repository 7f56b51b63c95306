import { useEffect, useRef, type ReactNode } from "react"

// A modal dialog on the browser's own <dialog>: focus moves in and back, Escape closes it, the page behind is
// inert. Render it with `open` and close it through `onClose`.
export const Dialog = ({ open, title, onClose, children, footer }: {
  readonly open: boolean
  readonly title: string
  readonly onClose: () => void
  readonly children: ReactNode
  readonly footer?: ReactNode
}) => {
  const ref = useRef<HTMLDialogElement>(null)
  useEffect(() => {
    const dialog = ref.current
    if (dialog === null) return
    if (open && !dialog.open) dialog.showModal()
    if (!open && dialog.open) dialog.close()
  }, [open])
  return (
    <dialog ref={ref} className="dialog" aria-labelledby="dialog-title" onClose={onClose} onCancel={onClose}>
      {open
        ? (
          <>
            <h2 id="dialog-title">{title}</h2>
            <div className="dialog-body">{children}</div>
            {footer === undefined ? null : <div className="dialog-footer">{footer}</div>}
          </>
        )
        : null}
    </dialog>
  )
}

/** "Are you sure?" for what cannot be undone: the action's button names the action ("Revoke key"). */
export const ConfirmDialog = ({ open, title, children, confirm, busy = false, onConfirm, onClose }: {
  readonly open: boolean
  readonly title: string
  readonly children: ReactNode
  readonly confirm: string
  readonly busy?: boolean
  readonly onConfirm: () => void
  readonly onClose: () => void
}) => (
  <Dialog
    open={open}
    title={title}
    onClose={onClose}
    footer={
      <>
        <button type="button" className="button button-secondary" onClick={onClose}>Cancel</button>
        <button type="button" className="button button-danger" onClick={onConfirm} disabled={busy} aria-busy={busy || undefined}>
          {confirm}
        </button>
      </>
    }
  >
    {children}
  </Dialog>
)
