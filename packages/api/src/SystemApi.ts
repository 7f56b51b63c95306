import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"

export class Health extends Schema.Class<Health>("Health")({
  status: Schema.Literal("ok"),
  database: Schema.Literal("ok")
}) {}

export class HealthUnavailable extends Schema.TaggedError<HealthUnavailable>()("HealthUnavailable", {
  status: Schema.Literal("unavailable"),
  database: Schema.Literals(["unreachable", "full"]).annotate({
    description: "`unreachable`: the database did not answer within 5 s; `full`: its disk (or the media folder's) was full " +
      "and no write has succeeded since."
  })
}) {}

/** What `/ready` looked at, each named by its outcome. */
export const ReadinessChecks = Schema.Struct({
  database: Schema.Literals(["ok", "unreachable"]).annotate({
    description: "`unreachable`: the database did not answer within 5 s."
  }),
  migrations: Schema.Literals(["ok", "behind", "ahead", "unknown"]).annotate({
    description: "`behind`: migrations of this release are missing; `ahead`: the database has migrations this release does not know (a newer release migrated it); `unknown`: the database did not answer."
  }),
  shards: Schema.Literals(["ok", "no_shards", "not_applicable"]).annotate({
    description: "Processes that publish (`HERALD_ROLE` all or worker): `no_shards` while the cluster runner holds no shard. `not_applicable` for `api` processes."
  })
})

export class Ready extends Schema.Class<Ready>("Ready")({
  status: Schema.Literal("ready"),
  checks: Schema.Struct({
    database: Schema.Literal("ok"),
    migrations: Schema.Literal("ok"),
    shards: Schema.Literals(["ok", "not_applicable"])
  }),
  networks: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)).annotate({
    description: "Only while some network is not answering (its oldest call waiting over 30 s, or its latest call timed out): " +
      "each such network with `degraded: N calls waiting, the oldest for S s; T timed out in the last minute`. The process " +
      "stays ready."
  })
}) {}

export class NotReady extends Schema.Error<NotReady>("NotReady")({
  status: Schema.Literal("not_ready"),
  checks: ReadinessChecks
}) {}

/** Routes outside `/api/v1`, answered without a key. */
export class SystemApi extends HttpApiGroup.make("system", { topLevel: true }).add(
  HttpApiEndpoint.get("health", "/health", {
    success: Health,
    error: HealthUnavailable.pipe(HttpApiSchema.status(503))
  }).annotate(OpenApi.Summary, "200 when the service and its database answer"),
  HttpApiEndpoint.get("ready", "/ready", {
    success: Ready,
    error: NotReady.pipe(HttpApiSchema.status(503))
  }).annotate(OpenApi.Summary, "200 when this process should get traffic: database, migrations and (workers) shards")
).annotateMerge(OpenApi.annotations({
  title: "System",
  description: "The service's liveness (`/health`) and readiness (`/ready`), for load balancers and monitors. No key."
})) {}
