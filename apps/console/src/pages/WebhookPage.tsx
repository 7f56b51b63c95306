import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query"
import { getRouteApi, Link } from "@tanstack/react-router"
import { api, unwrap } from "../api/client.ts"
import { Banner, ErrorMessage } from "../components/Banner.tsx"
import { Button } from "../components/Button.tsx"
import { Page, QueryState } from "../components/Page.tsx"
import { when } from "../components/when.ts"
import { DeleteEndpoint } from "./webhooks/DeleteEndpoint.tsx"
import { EndpointForm, type EndpointFields } from "./webhooks/EndpointForm.tsx"
import { type Endpoint, outcome, StateBadge, succeeded } from "./webhooks/EndpointState.tsx"
import { describeEvents } from "./webhooks/events.ts"
import { RotateSecret } from "./webhooks/RotateSecret.tsx"
import { SwitchedOffBanner } from "./webhooks/SwitchedOffBanner.tsx"
import { WebhookDeliveries } from "./webhooks/WebhookDeliveries.tsx"
import { webhooksKey } from "./webhooks/webhooksKey.ts"

const route = getRouteApi("/shell/settings/webhooks/$id")

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
      <SwitchedOffBanner endpoint={endpoint} switching={switchTo.isPending} onSwitchOn={() => switchTo.mutate(true)} />
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
          <DeleteEndpoint endpoint={endpoint} />
        </div>
        {test.data === undefined ? null : (
          <Banner tone={succeeded(test.data) ? "success" : "warning"} title="Test event sent">
            <p>
              {succeeded(test.data) ? "The endpoint answered" : "The attempt failed"}: {outcome(test.data)}. The attempt is in the history below.
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
        <WebhookDeliveries id={id} />
      </section>
    </>
  )
}
