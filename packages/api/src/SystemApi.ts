import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"

export class Health extends Schema.Class<Health>("Health")({
  status: Schema.Literal("ok"),
  database: Schema.Literal("ok")
}) {}

export class HealthUnavailable extends Schema.TaggedError<HealthUnavailable>()("HealthUnavailable", {
  status: Schema.Literal("unavailable"),
  database: Schema.Literal("unreachable")
}) {}

/** Routes outside `/api/v1`, answered without a key. */
export class SystemApi extends HttpApiGroup.make("system", { topLevel: true }).add(
  HttpApiEndpoint.get("health", "/health", {
    success: Health,
    error: HealthUnavailable.pipe(HttpApiSchema.status(503))
  }).annotate(OpenApi.Summary, "200 when the service and its database answer")
).annotateMerge(OpenApi.annotations({
  title: "System",
  description: "The service's health, for load balancers and monitors. No key."
})) {}
