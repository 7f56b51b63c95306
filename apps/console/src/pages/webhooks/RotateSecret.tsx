import { useMutation } from "@tanstack/react-query"
import { useState } from "react"
import { api, unwrap } from "../../api/client.ts"
import { ErrorMessage } from "../../components/Banner.tsx"
import { Button } from "../../components/Button.tsx"
import { SecretValue } from "../../components/CopyButton.tsx"
import { ConfirmDialog, Dialog } from "../../components/Dialog.tsx"

// A new signing secret after a confirmation, shown once.
export const RotateSecret = ({ id }: { readonly id: string }) => {
  const [asking, setAsking] = useState(false)
  const rotate = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/webhooks/{id}/rotate-secret", { params: { path: { id } } })),
    onSuccess: () => setAsking(false)
  })
  return (
    <>
      <Button onClick={() => setAsking(true)}>Rotate secret</Button>
      <ConfirmDialog
        open={asking}
        title="Rotate the signing secret?"
        confirm="Rotate secret"
        busy={rotate.isPending}
        onConfirm={() => rotate.mutate()}
        onClose={() => setAsking(false)}
      >
        <p>
          The current secret stops signing at once. Have your receiver accept both the old and the new secret
          while you switch over, so no event is refused.
        </p>
        <ErrorMessage error={rotate.error} />
      </ConfirmDialog>
      <Dialog
        open={rotate.data !== undefined}
        title="New signing secret"
        onClose={() => rotate.reset()}
        footer={<Button variant="primary" onClick={() => rotate.reset()}>Done</Button>}
      >
        {rotate.data === undefined ? null : (
          <SecretValue
            label="Signing secret"
            value={rotate.data.secret}
            warning="Copy it now: Herald shows it only this once."
          />
        )}
      </Dialog>
    </>
  )
}
