import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { Link } from "@tanstack/react-router"
import { useState } from "react"
import { api, unwrap } from "../api/client.ts"
import { Button } from "../components/Button.tsx"
import { SecretValue } from "../components/CopyButton.tsx"
import { Dialog } from "../components/Dialog.tsx"
import { Page, QueryState } from "../components/Page.tsx"
import { Table } from "../components/Table.tsx"
import { when } from "../components/when.ts"
import { EndpointForm, type EndpointFields } from "./webhooks/EndpointForm.tsx"
import { describeEvents } from "./webhooks/events.ts"
import { type Endpoint, outcome, StateBadge, succeeded } from "./webhooks/EndpointState.tsx"
import { webhooksKey } from "./webhooks/webhooksKey.ts"

// Settings > Webhooks: the workspace's endpoints with their state and last delivery, and adding one (its
// signing secret shown once).
export const WebhooksPage = () => {
  const endpoints = useQuery({ queryKey: webhooksKey, queryFn: () => unwrap(api.GET("/api/v1/webhooks")) })
  const [adding, setAdding] = useState(false)
  return (
    <Page
      title="Webhooks"
      description="Herald sends signed events (a post went out, an account needs reconnecting…) to these addresses."
      actions={<Button variant="primary" onClick={() => setAdding(true)}>Add endpoint</Button>}
    >
      <QueryState
        query={endpoints}
        what="webhook endpoints"
        empty={
          <>
            <p>No webhook endpoints yet.</p>
            <p>Add one to have Herald tell your code what happens, as it happens.</p>
          </>
        }
      >
        {(rows) => (
          <Table
            caption="Webhook endpoints"
            captionHidden
            rows={rows}
            rowKey={(row) => row.id}
            columns={[
              {
                header: "Endpoint",
                cell: (row) => (
                  <div className="endpoint-cell">
                    <Link to="/settings/webhooks/$id" params={{ id: row.id }} className="endpoint-url">{row.url}</Link>
                    {row.description === null ? null : <span className="muted">{row.description}</span>}
                  </div>
                )
              },
              { header: "Events", cell: (row) => describeEvents(row.events) },
              { header: "State", cell: (row) => <StateBadge endpoint={row} /> },
              { header: "Last delivery", cell: (row) => <LastDelivery endpoint={row} /> }
            ]}
          />
        )}
      </QueryState>
      <AddEndpoint open={adding} onClose={() => setAdding(false)} />
    </Page>
  )
}

// The newest attempt to the endpoint: when, and how it went.
const LastDelivery = ({ endpoint }: { readonly endpoint: Endpoint }) => {
  const last = useQuery({
    queryKey: [...webhooksKey, endpoint.id, "deliveries", "last"],
    queryFn: () => unwrap(api.GET("/api/v1/webhooks/{id}/deliveries", { params: { path: { id: endpoint.id }, query: { limit: 1 } } }))
  })
  if (last.isPending) return <span className="muted">…</span>
  if (last.isError) return <span className="muted">Unknown</span>
  const delivery = last.data[0]
  if (delivery === undefined) return <span className="muted">None yet</span>
  return (
    <span className={succeeded(delivery) ? "delivery-ok" : "delivery-failed"}>
      {when(delivery.createdAt)}: {outcome(delivery)}
    </span>
  )
}

const AddEndpoint = ({ open, onClose }: { readonly open: boolean; readonly onClose: () => void }) => {
  const queryClient = useQueryClient()
  const create = useMutation({
    mutationFn: (fields: EndpointFields) => unwrap(api.POST("/api/v1/webhooks", { body: fields })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: webhooksKey })
  })
  const close = () => {
    create.reset()
    onClose()
  }
  const made = create.data
  return (
    <Dialog
      open={open}
      title={made === undefined ? "Add a webhook endpoint" : "Endpoint added"}
      onClose={close}
      {...(made === undefined ? {} : {
        footer: (
          <>
            <Link to="/settings/webhooks/$id" params={{ id: made.id }} className="button button-secondary" onClick={close}>
              Open the endpoint
            </Link>
            <Button variant="primary" onClick={close}>Done</Button>
          </>
        )
      })}
    >
      {made === undefined
        ? <EndpointForm submitLabel="Add endpoint" busy={create.isPending} error={create.error} onSubmit={(fields) => create.mutate(fields)} onCancel={close} />
        : (
          <>
            <p>
              Herald signs every request to <code>{made.url}</code> with this secret; your receiver checks the
              signature with it (see docs/webhooks.md).
            </p>
            <SecretValue
              label="Signing secret"
              value={made.secret}
              warning="Copy it now: Herald shows it only this once. If it is lost, rotate the secret on the endpoint's page."
            />
          </>
        )}
    </Dialog>
  )
}
