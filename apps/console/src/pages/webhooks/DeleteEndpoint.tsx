import { useMutation, useQueryClient } from "@tanstack/react-query"
import { useNavigate } from "@tanstack/react-router"
import { useState } from "react"
import { api, unwrap } from "../../api/client.ts"
import { ErrorMessage } from "../../components/Banner.tsx"
import { Button } from "../../components/Button.tsx"
import { ConfirmDialog } from "../../components/Dialog.tsx"
import type { Endpoint } from "./EndpointState.tsx"
import { webhooksKey } from "./webhooksKey.ts"

// Deleting an endpoint, after a confirmation, then back to the list.
export const DeleteEndpoint = ({ endpoint }: { readonly endpoint: Endpoint }) => {
  const queryClient = useQueryClient()
  const navigate = useNavigate()
  const [asking, setAsking] = useState(false)
  const remove = useMutation({
    mutationFn: () => unwrap(api.DELETE("/api/v1/webhooks/{id}", { params: { path: { id: endpoint.id } } })),
    onSuccess: async () => {
      setAsking(false)
      queryClient.removeQueries({ queryKey: [...webhooksKey, endpoint.id] })
      await queryClient.invalidateQueries({ queryKey: webhooksKey })
      await navigate({ to: "/settings/webhooks" })
    }
  })
  return (
    <>
      <Button variant="danger" onClick={() => setAsking(true)}>Delete endpoint</Button>
      <ConfirmDialog
        open={asking}
        title="Delete this endpoint?"
        confirm="Delete endpoint"
        busy={remove.isPending}
        onConfirm={() => remove.mutate()}
        onClose={() => setAsking(false)}
      >
        <p>Herald stops sending to <code>{endpoint.url}</code>; its waiting retries and its history go with it.</p>
        <ErrorMessage error={remove.error} />
      </ConfirmDialog>
    </>
  )
}
