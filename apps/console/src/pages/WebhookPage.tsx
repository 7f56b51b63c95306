import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { getRouteApi, Link, useNavigate } from "@tanstack/react-router"
import { useState } from "react"
import { ApiError } from "../api/ApiError.ts"
import { api, unwrap } from "../api/client.ts"
import { Banner, ErrorMessage } from "../components/Banner.tsx"
import { Button } from "../components/Button.tsx"
import { SecretValue } from "../components/CopyButton.tsx"
import { ConfirmDialog, Dialog } from "../components/Dialog.tsx"
import { Page, QueryState } from "../components/Page.tsx"
import { Table } from "../components/Table.tsx"
import { when } from "../components/when.ts"
import { EndpointForm, type EndpointFields } from "./webhooks/EndpointForm.tsx"
import { describeEvents } from "./webhooks/events.ts"
import { type Delivery, type Endpoint, outcome, StateBadge, succeeded } from "./webhooks/state.tsx"
import { webhooksKey } from "./WebhooksPage.tsx"

const route = getRouteApi("/shell/settings/webhooks/$id")

const pageSize = 20

// One webhook endpoint: change it, rotate its secret, send a test event, switch it on and off, and its
// delivery history with a redeliver button per attempt.
export const WebhookPage = () => {
  const { id } = route.useParams()
  const endpoint = useQuery({
    queryKey: [...webhooksKey, id],
    queryFn: () => unwrap(api.GET("/api/v1/webhooks/{id}", { params: { path: { id } } }))
  })
  const title = endpoint.data?.description ?? "Webhook endpoint"
  return (
    <Page title={title} description={endpoint.data === undefined ? undefined : <code className="endpoint-url">{endpoint.data.url}</code>}>
      <p><Link to="/settings/webhooks">← All webhook endpoints</Link></p>
      <QueryState query={endpoint} what="the endpoint">
        {(data) => <EndpointDetail endpoint={data} />}
      </QueryState>
    </Page>
  )
}

const EndpointDetail = ({ endpoint }: { readonly endpoint: Endpoint }) => {
  const queryClient = useQueryClient()
  const id = endpoint.id
  const path = { params: { path: { id } } }
  const refresh = () => queryClient.invalidateQueries({ queryKey: webhooksKey })
  const save = (data: Endpoint) => {
    queryClient.setQueryData([...webhooksKey, id], data)
    return refresh()
  }

  const update = useMutation({
    mutationFn: (fields: EndpointFields) => unwrap(api.PATCH("/api/v1/webhooks/{id}", { ...path, body: fields })),
    onSuccess: save
  })
  const switchTo = useMutation({
    mutationFn: (enabled: boolean) => unwrap(api.PATCH("/api/v1/webhooks/{id}", { ...path, body: { enabled } })),
    onSuccess: save
  })
  const test = useMutation({
    mutationFn: () => unwrap(api.POST("/api/v1/webhooks/{id}/test", path)),
    onSettled: refresh
  })

  return (
    <>
      <SwitchedOff endpoint={endpoint} switching={switchTo.isPending} onSwitchOn={() => switchTo.mutate(true)} />
      <ErrorMessage error={switchTo.error} />

      <section className="card stack" aria-labelledby="state-heading">
        <h2 id="state-heading">State</h2>
        <dl className="facts">
          <div><dt>State</dt><dd><StateBadge endpoint={endpoint} /></dd></div>
          <div><dt>Events</dt><dd>{describeEvents(endpoint.events)}</dd></div>
          <div><dt>Failed events in a row</dt><dd>{endpoint.failures}</dd></div>
          <div><dt>Added</dt><dd>{when(endpoint.createdAt)}</dd></div>
        </dl>
        <div className="form-actions">
          {endpoint.enabled
            ? (
              <>
                <Button onClick={() => test.mutate()} busy={test.isPending}>Send test event</Button>
                <Button onClick={() => switchTo.mutate(false)} busy={switchTo.isPending}>Switch off</Button>
              </>
            )
            : <Button variant="primary" onClick={() => switchTo.mutate(true)} busy={switchTo.isPending}>Switch on</Button>}
          <RotateSecret id={id} />
          <Remove endpoint={endpoint} />
        </div>
        {test.data === undefined ? null : (
          <Banner tone={succeeded(test.data) ? "success" : "warning"} title="Test event sent">
            <p>
              {succeeded(test.data) ? "The endpoint answered" : "The attempt failed"}: {outcome(test.data)}. It is
              at the top of the history below.
            </p>
          </Banner>
        )}
        <ErrorMessage error={test.error} />
      </section>

      <section className="card stack" aria-labelledby="edit-heading">
        <h2 id="edit-heading">Address and events</h2>
        {update.isSuccess ? <Banner tone="success"><p>Changes saved.</p></Banner> : null}
        <EndpointForm
          key={`${endpoint.url} ${endpoint.events.join(",")} ${endpoint.description ?? ""}`}
          initial={endpoint}
          submitLabel="Save changes"
          busy={update.isPending}
          error={update.error}
          onSubmit={(fields) => update.mutate(fields)}
        />
      </section>

      <section className="card stack" aria-labelledby="deliveries-heading">
        <h2 id="deliveries-heading">Deliveries</h2>
        <p className="muted">Every attempt of the last 30 days, newest first.</p>
        <Deliveries id={id} />
      </section>
    </>
  )
}

// Why an endpoint is off, and what switching it on does (decision 0011: the kept events go out).
const SwitchedOff = ({ endpoint, switching, onSwitchOn }: {
  readonly endpoint: Endpoint
  readonly switching: boolean
  readonly onSwitchOn: () => void
}) => {
  const latest = useQuery({
    queryKey: [...webhooksKey, endpoint.id, "deliveries", "latest-failure"],
    enabled: endpoint.switchedOff === "failures",
    queryFn: async () => {
      const attempts = await unwrap(api.GET("/api/v1/webhooks/{id}/deliveries", { params: { path: { id: endpoint.id }, query: { limit: 20 } } }))
      return attempts.find((attempt) => !succeeded(attempt)) ?? null
    }
  })
  if (endpoint.switchedOff === null) return null
  const after = endpoint.switchedOff === "failures"
  const failed = latest.data ?? undefined
  return (
    <Banner
      tone={after ? "error" : "info"}
      title={after
        ? `Herald switched this endpoint off after ${endpoint.failures} failed events in a row`
        : "This endpoint is switched off"}
    >
      {after
        ? (
          <p>
            Switched off {when(endpoint.disabledAt)}: its attempts kept failing, even on retry.
            {failed === undefined ? null : <> The last failed attempt: {outcome(failed)}{failed.response === null ? "" : ` (“${failed.response.slice(0, 120)}”)`}.</>}
          </p>
        )
        : <p>Switched off {when(endpoint.disabledAt)}. Nothing is sent to it meanwhile.</p>}
      <p>
        Its events are kept. Switching it on {after ? "resets the failure count and " : ""}sends the kept events,
        oldest first, then new ones as they happen.
      </p>
      <div>
        <Button variant="primary" onClick={onSwitchOn} busy={switching}>Switch on</Button>
      </div>
    </Banner>
  )
}

const RotateSecret = ({ id }: { readonly id: string }) => {
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

const Remove = ({ endpoint }: { readonly endpoint: Endpoint }) => {
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

interface DeliveryPage {
  readonly data: ReadonlyArray<Delivery>
  readonly nextCursor: string | null
}

// The history, a page at a time: "Older" follows nextCursor, "Newer" goes back along the cursors seen.
const Deliveries = ({ id }: { readonly id: string }) => {
  const queryClient = useQueryClient()
  const [cursors, setCursors] = useState<ReadonlyArray<string>>([])
  const cursor = cursors.at(-1)
  const page = useQuery({
    queryKey: [...webhooksKey, id, "deliveries", "page", cursor ?? "newest"],
    queryFn: async (): Promise<DeliveryPage> => {
      const { data, error, response } = await api.GET("/api/v1/webhooks/{id}/deliveries", {
        params: { path: { id }, query: { limit: pageSize, ...(cursor === undefined ? {} : { cursor }) } }
      })
      if (!response.ok || data === undefined) throw ApiError.from(response.status, error)
      return data
    }
  })
  const redeliver = useMutation({
    mutationFn: (deliveryId: string) =>
      unwrap(api.POST("/api/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver", { params: { path: { id, deliveryId } } })),
    onSuccess: async () => {
      // The new attempt is the newest: show the first page.
      setCursors([])
      await queryClient.invalidateQueries({ queryKey: webhooksKey })
    }
  })
  return (
    <QueryState
      query={page}
      what="deliveries"
      isEmpty={(data) => data.data.length === 0 && cursor === undefined}
      empty={<p>No deliveries yet. Send a test event to see one.</p>}
    >
      {(data) => (
        <div className="stack">
          <ErrorMessage error={redeliver.error} />
          {redeliver.data === undefined ? null : (
            <Banner tone={succeeded(redeliver.data) ? "success" : "warning"} title="Redelivered">
              <p>{redeliver.data.event}, attempt {redeliver.data.attempt}: {outcome(redeliver.data)}.</p>
            </Banner>
          )}
          <Table
            caption="Delivery attempts"
            captionHidden
            rows={data.data}
            rowKey={(row) => row.id}
            columns={[
              { header: "Time", cell: (row) => <span className="nowrap">{when(row.createdAt)}</span> },
              { header: "Event", cell: (row) => <code>{row.event}</code> },
              { header: "Event id", cell: (row) => <code className="event-id" title={row.eventId}>{row.eventId.slice(0, 8)}</code> },
              { header: "Attempt", align: "end", cell: (row) => row.attempt },
              {
                header: "Status",
                cell: (row) => (
                  <span className={succeeded(row) ? "delivery-ok" : "delivery-failed"}>
                    {typeof row.statusCode === "number" ? row.statusCode : "No answer"}
                  </span>
                )
              },
              { header: "Duration", align: "end", cell: (row) => `${row.durationMs} ms` },
              {
                header: "Answer",
                cell: (row) => row.response === null || row.response === "" ? "—" : <span className="answer" title={row.response}>{row.response.slice(0, 80)}</span>
              },
              { header: "Error", cell: (row) => row.error ?? "—" },
              { header: "Next retry", cell: (row) => when(row.nextRetryAt) },
              {
                header: "Actions",
                align: "end",
                cell: (row) => (
                  <Button
                    onClick={() => redeliver.mutate(row.id)}
                    busy={redeliver.isPending && redeliver.variables === row.id}
                    aria-label={`Redeliver ${row.event}, attempt ${row.attempt} of ${when(row.createdAt)}`}
                  >
                    Redeliver
                  </Button>
                )
              }
            ]}
          />
          <nav className="pager" aria-label="Delivery pages">
            <Button onClick={() => setCursors((seen) => seen.slice(0, -1))} disabled={cursors.length === 0}>Newer</Button>
            <Button
              onClick={() => data.nextCursor !== null && setCursors((seen) => [...seen, data.nextCursor!])}
              disabled={data.nextCursor === null}
            >
              Older
            </Button>
          </nav>
        </div>
      )}
    </QueryState>
  )
}
