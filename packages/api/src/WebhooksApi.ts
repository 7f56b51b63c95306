import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { Bounded, Webhook } from "@herald/domain"
import { ConflictResponse, InvalidResponse, NotFoundResponse } from "./ApiError.ts"
import { cursor, Data, Page } from "./Envelope.ts"
import { Deleted } from "./PostsApi.ts"
import * as QueryInteger from "./internal/queryInteger.ts"

const events = Bounded.array(Bounded.Word, Bounded.counts.events, "events")

/** `POST /api/v1/webhooks` (product.md, "Webhooks"). Unknown fields are refused. */
export const CreateEndpoint = Schema.Struct({
  url: Bounded.Url,
  events: Schema.optionalKey(events),
  description: Schema.optionalKey(Schema.NullOr(Bounded.Note))
})

/**
 * `PATCH /api/v1/webhooks/:id`: only what is sent changes; `enabled: false` keeps the endpoint's events,
 * `enabled: true` resets the failure count and sends them, oldest first (decision 0011).
 */
export const UpdateEndpoint = Schema.Struct({
  url: Schema.optionalKey(Bounded.Url),
  events: Schema.optionalKey(events),
  description: Schema.optionalKey(Schema.NullOr(Bounded.Note)),
  enabled: Schema.optionalKey(Schema.Boolean)
})

export class WebhooksApi extends HttpApiGroup.make("webhooks").add(
  // Before `/webhooks/:id`, though the router prefers the fixed path anyway: an endpoint's id is `whk_…`.
  HttpApiEndpoint.get("events", "/webhooks/events", {
    success: Data(Schema.Array(Schema.Literals(Webhook.EventKinds)))
  }).annotate(OpenApi.Summary, "The events an endpoint can ask for, in the reference's order (decision 0085)"),
  HttpApiEndpoint.post("create", "/webhooks", {
    payload: CreateEndpoint,
    success: Data(Webhook.EndpointWithSecret),
    error: [InvalidResponse, ConflictResponse]
  }).annotate(OpenApi.Summary, "Add a webhook endpoint; its signing secret is shown only in this answer"),
  HttpApiEndpoint.get("list", "/webhooks", {
    // Not paged: a workspace has at most 10 endpoints.
    success: Data(Schema.Array(Webhook.Endpoint))
  }).annotate(OpenApi.Summary, "List the workspace's webhook endpoints"),
  HttpApiEndpoint.get("get", "/webhooks/:id", {
    params: { id: Bounded.Id },
    success: Data(Webhook.Endpoint),
    error: NotFoundResponse
  }).annotate(OpenApi.Summary, "One webhook endpoint"),
  HttpApiEndpoint.patch("update", "/webhooks/:id", {
    params: { id: Bounded.Id },
    payload: UpdateEndpoint,
    success: Data(Webhook.Endpoint),
    error: [InvalidResponse, NotFoundResponse]
  }).annotate(OpenApi.Summary, "Change an endpoint's url, events, description or enabled; switched off it keeps its events, switched on it resets its failure count and sends them, oldest first"),
  HttpApiEndpoint.delete("remove", "/webhooks/:id", {
    params: { id: Bounded.Id },
    success: Data(Deleted),
    error: NotFoundResponse
  }).annotate(OpenApi.Summary, "Delete a webhook endpoint and its delivery history"),
  HttpApiEndpoint.post("rotateSecret", "/webhooks/:id/rotate-secret", {
    params: { id: Bounded.Id },
    success: Data(Webhook.EndpointWithSecret),
    error: NotFoundResponse
  }).annotate(OpenApi.Summary, "Replace an endpoint's signing secret; the new one is shown only in this answer"),
  HttpApiEndpoint.post("test", "/webhooks/:id/test", {
    params: { id: Bounded.Id },
    success: Data(Webhook.Delivery),
    error: [NotFoundResponse, ConflictResponse]
  }).annotate(OpenApi.Summary, "Send webhook.test to the endpoint now and answer how the attempt went"),
  HttpApiEndpoint.get("deliveries", "/webhooks/:id/deliveries", {
    params: { id: Bounded.Id },
    query: { limit: Schema.optional(QueryInteger.limit), cursor: Schema.optional(cursor) },
    success: Page(Webhook.Delivery),
    error: [NotFoundResponse, InvalidResponse]
  }).annotate(OpenApi.Summary, "The endpoint's delivery attempts, newest first (kept 30 days)"),
  HttpApiEndpoint.post("redeliver", "/webhooks/:id/deliveries/:deliveryId/redeliver", {
    params: { id: Bounded.Id, deliveryId: Bounded.Id },
    success: Data(Webhook.Delivery),
    error: [NotFoundResponse, ConflictResponse]
  }).annotate(OpenApi.Summary, "Send a delivery's body again now, with a new delivery id and signature")
).annotateMerge(OpenApi.annotations({
  title: "Webhooks",
  description: "Endpoints that receive Herald's signed events (post.published and the rest), and their delivery attempts."
})) {}
