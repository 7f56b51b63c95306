/**
 * Every series Herald exports at `GET /metrics` (decision 0049), defined once so that the code that
 * updates a series, the route that renders them and the Grafana dashboard in docs/ agree on the names.
 * Attributes become Prometheus labels; each label's values are a small fixed set (route templates, not
 * paths; network keys; outcomes), never ids.
 */
import { Metric } from "effect"

// Seconds: from 1 ms to about 2 minutes.
const latencyBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120]
// Publishing lag and webhook delivery latency, seconds: from 100 ms to an hour.
const lagBuckets = [0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 900, 1800, 3600]

/** Labels `route` (the route's template, `/api/v1/posts/:id`), `method`, `status`. */
export const httpRequests = Metric.counter("herald_http_requests_total", {
  description: "HTTP requests answered, by route template, method and status",
  incremental: true
})

/** Labels as `httpRequests`. */
export const httpRequestDuration = Metric.histogram("herald_http_request_duration_seconds", {
  description: "Time from a request's arrival to its response, by route template, method and status",
  boundaries: latencyBuckets
})

/** Label `timing`: `scheduled`, `publish_now`, `queued` or `draft`. */
export const postsCreated = Metric.counter("herald_posts_created_total", {
  description: "Posts created, by timing",
  incremental: true
})

/** Labels `network` and `outcome` (`published` or `failed`). */
export const targetsEnded = Metric.counter("herald_targets_ended_total", {
  description: "Targets that reached a final state, by network and outcome",
  incremental: true
})

/** Label `network`: from the post's `scheduledAt` to the network accepting the target. */
export const publishingLag = Metric.histogram("herald_publishing_lag_seconds", {
  description: "Time from a target's scheduled time to the network accepting it",
  boundaries: lagBuckets
})

/** Set when scraped. */
export const postsDueNextHour = Metric.gauge("herald_posts_due_next_hour", {
  description: "Scheduled posts whose time falls in the next hour"
})

/** Label `outcome`: `delivered`, `failed` (an answer other than 2xx) or `unreachable` (no answer). */
export const webhookAttempts = Metric.counter("herald_webhook_attempts_total", {
  description: "Webhook delivery attempts, by outcome",
  incremental: true
})

/** From the event's creation to the receiver's 2xx. */
export const webhookDeliveryLatency = Metric.histogram("herald_webhook_delivery_latency_seconds", {
  description: "Time from an event to its delivery to an endpoint",
  boundaries: lagBuckets
})

export const webhookEndpointsDisabled = Metric.counter("herald_webhook_endpoints_disabled_total", {
  description: "Webhook endpoints switched off after failing in a row",
  incremental: true
})

/** Label `network`. */
export const inboxRounds = Metric.counter("herald_inbox_rounds_total", {
  description: "Inbox reads of an account, by network",
  incremental: true
})

/** Label `network`. */
export const inboxFailures = Metric.counter("herald_inbox_failures_total", {
  description: "Inbox reads that failed, by network",
  incremental: true
})

export const rateLimitRefusals = Metric.counter("herald_rate_limit_refusals_total", {
  description: "Requests refused with 429 by the per-key rate limit",
  incremental: true
})

/** Label `state`: `in_use`, `idle` or `max`; set when scraped. */
export const databasePool = Metric.gauge("herald_db_pool_connections", {
  description: "Database connections of this process's pool, by state"
})
