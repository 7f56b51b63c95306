import { getRouteApi } from "@tanstack/react-router"
import { Coming } from "../components/Page.tsx"

const route = getRouteApi("/shell/settings/webhooks/$id")

// Replaced by the page itself (issue 15).
export const WebhookPage = () => {
  const { id } = route.useParams()
  return <Coming title="Webhook endpoint"><p>Endpoint {id}: this page is coming.</p></Coming>
}
