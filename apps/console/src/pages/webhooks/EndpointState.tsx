import type { components } from "@herald/client/api"

export type Endpoint = components["schemas"]["WebhookEndpoint"]
export type Delivery = components["schemas"]["WebhookDelivery"]

/** On, off by hand, or switched off by Herald after failures: as a badge. */
export const StateBadge = ({ endpoint }: { readonly endpoint: Endpoint }) =>
  endpoint.enabled
    ? <span className="badge badge-success">On</span>
    : endpoint.switchedOff === "failures"
    ? <span className="badge badge-error">Switched off after failures</span>
    : <span className="badge badge-muted">Off</span>

/** An attempt in a few words: "500 in 12 ms", "timed out after 10,000 ms". */
export const outcome = (delivery: Delivery): string =>
  typeof delivery.statusCode === "number"
    ? `${delivery.statusCode} in ${delivery.durationMs} ms`
    : `${delivery.error ?? "No answer"} (${delivery.durationMs} ms)`

export const succeeded = (delivery: Delivery): boolean =>
  typeof delivery.statusCode === "number" && delivery.statusCode >= 200 && delivery.statusCode < 300
