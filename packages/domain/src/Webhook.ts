import { Schema } from "effect"

/**
 * Every event a webhook endpoint can ask for (reference, "Event kinds"). An endpoint's `events` may name
 * only these; an empty selection receives all of them, including kinds added later.
 */
export const EventKinds = [
  "post.created",
  "post.scheduled",
  "post.updated",
  "post.rescheduled",
  "post.deleted",
  "post.retried",
  "post.published",
  "post.partial",
  "post.failed",
  "post.submitted",
  "post.approved",
  "post.changes_requested",
  "account.connected",
  "account.disconnected",
  "account.needs_reconnect",
  "member.joined",
  "comment.received",
  "message.received",
  "message.sent",
  "webhook.test"
] as const

export type EventKind = typeof EventKinds[number]

/** A webhook endpoint as the API shows it (product.md, "Webhooks"); its secret only on creation and rotation. */
export class Endpoint extends Schema.Class<Endpoint>("WebhookEndpoint")({
  id: Schema.String,
  url: Schema.String,
  /** The events it receives; empty means every event. */
  events: Schema.Array(Schema.String),
  description: Schema.NullOr(Schema.String),
  enabled: Schema.Boolean,
  /** Events failed in a row (each counted once, when its first retry fails too); a success or switching on resets it. */
  failures: Schema.Int,
  /**
   * Why the endpoint is off: `failures` when Herald switched it off after too many failed events in a row,
   * `by_hand` when someone switched it off; null while it is on.
   */
  switchedOff: Schema.NullOr(Schema.Literals(["failures", "by_hand"])),
  /** When it was switched off, or null while it is on. */
  disabledAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String
}) {}

/** The endpoint with its signing secret: the answer to creation and to rotation, and nowhere else. */
export class EndpointWithSecret extends Schema.Class<EndpointWithSecret>("WebhookEndpointWithSecret")({
  ...Endpoint.fields,
  /** `whsec_…`: the HMAC-SHA256 key of `Service-Signature`, used as the whole string. */
  secret: Schema.String
}) {}

/** One delivery attempt (product.md, "Webhooks": status code, start of the answer, duration, attempt, next retry). */
export class Delivery extends Schema.Class<Delivery>("WebhookDelivery")({
  /** The attempt's `Service-Delivery`. */
  id: Schema.String,
  /** The body's `id`, the same for every attempt of the event. */
  eventId: Schema.String,
  event: Schema.String,
  attempt: Schema.Int,
  /** The receiver's status, or null when it did not answer. */
  statusCode: Schema.NullOr(Schema.Int),
  /** The first 1,000 characters of its answer. */
  response: Schema.NullOr(Schema.String),
  durationMs: Schema.Int,
  /** Why there was no answer: timed out, connection refused, address refused... */
  error: Schema.NullOr(Schema.String),
  /** When the next attempt is due, or null when there is none. */
  nextRetryAt: Schema.NullOr(Schema.String),
  createdAt: Schema.String
}) {}
