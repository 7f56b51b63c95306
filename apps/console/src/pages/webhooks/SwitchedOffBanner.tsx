import { useQuery } from "@tanstack/react-query"
import { api, unwrap } from "../../api/client.ts"
import { Banner } from "../../components/Banner.tsx"
import { Button } from "../../components/Button.tsx"
import { when } from "../../components/when.ts"
import { type Endpoint, outcome, succeeded } from "./EndpointState.tsx"
import { webhooksKey } from "./webhooksKey.ts"

// Why an endpoint is off, and what switching it on does (decision 0011: the kept events go out).
export const SwitchedOffBanner = ({ endpoint, switching, onSwitchOn }: {
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
