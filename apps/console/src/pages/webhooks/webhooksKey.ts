/** The root of every webhook query: endpoints, one endpoint, its deliveries; a change invalidates them all. */
export const webhooksKey = ["webhooks"] as const
