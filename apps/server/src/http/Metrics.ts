import { Context, Effect, Metric, Option, Redacted, Schema } from "effect"
import { HttpRouter, HttpServerError, HttpServerRequest, HttpServerResponse } from "effect/http"
import { PrometheusMetrics } from "effect/observability"
import { SqlClient, SqlSchema } from "effect/sql"
import { PgClient } from "@effect/sql-pg"
import { Metrics } from "@herald/core"
import { DatabaseInfo } from "@herald/db"
import { createHash, timingSafeEqual } from "node:crypto"
import { bearerKey } from "./AuthorizationLive.ts"

// `GET /metrics`: every series of core's Metrics in the Prometheus text exposition format (decision 0049).
// It is operational, not part of /api/v1: no API key opens it and no rate limit counts it. Only the
// operator's `HERALD_METRICS_TOKEN`, sent as a bearer token, does; without the setting, or without that
// token, the answer is the very 404 any unknown path gets, so a scanner cannot tell the route exists.
// The gauges that describe state rather than events (posts due, the database pool) are read when scraped:
// two small queries per scrape, nothing between scrapes.

/** `HERALD_METRICS_TOKEN`, as the settings read it (Main provides it); none, the default, turns the route off. */
export const MetricsToken = Context.Reference<Option.Option<Redacted.Redacted<string>>>(
  "@herald/server/http/Metrics/MetricsToken",
  { defaultValue: () => Option.none() }
)

const contentType = "text/plain; version=0.0.4; charset=utf-8"

// Digests have one length whatever was sent, so the comparison takes the same time for any guess.
const digest = (text: string) => createHash("sha256").update(text).digest()

const opens = (token: Option.Option<Redacted.Redacted<string>>, request: HttpServerRequest.HttpServerRequest) =>
  Option.isSome(token) && timingSafeEqual(digest(bearerKey(request)), digest(Redacted.value(token.value)))

/** What the router answers for a path it does not know, rendered by ErrorRendering like every other. */
const notFound = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.fail(new HttpServerError.HttpServerError({ reason: new HttpServerError.RouteNotFound({ request }) }))

/** The pool's size when the database layer sets none: @effect/sql-pg's PgPool default. */
const defaultMaxConnections = 10

const poolState = (state: "in_use" | "idle" | "max") => Metric.withAttributes(Metrics.databasePool, { state })

// The gauges' statements, built once, on the client of the scrape; a row unlike its schema dies.
const postsDue = SqlSchema.findOneOption({
  Request: Schema.Void,
  Result: Schema.Struct({ due: Schema.Number }),
  execute: () =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql`
    SELECT count(*)::int AS due FROM posts
    WHERE status = 'scheduled' AND scheduled_at < now() + interval '1 hour'`)
})

const sessions = SqlSchema.findOneOption({
  Request: Schema.String,
  Result: Schema.Struct({ inUse: Schema.Number, idle: Schema.Number }),
  execute: (applicationName) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql`
    SELECT count(*) FILTER (WHERE state IS DISTINCT FROM 'idle')::int AS in_use,
      count(*) FILTER (WHERE state = 'idle')::int AS idle
    FROM pg_stat_activity
    WHERE datname = current_database() AND application_name = ${applicationName}`)
})

const dieOnBadRow = <A, E, R>(self: Effect.Effect<A, E | Schema.SchemaError, R>) =>
  Effect.catchIf(self, Schema.isSchemaError, Effect.die)

/**
 * Scheduled posts of every workspace whose time falls within the next hour, or has passed without their
 * publishing starting: one count over the partial index `posts_due`.
 */
const setPostsDue = Effect.fnUntraced(function*(sql: SqlClient.SqlClient) {
  const row = yield* dieOnBadRow(Effect.provideService(postsDue(undefined), SqlClient.SqlClient, sql))
  yield* Metric.update(Metrics.postsDueNextHour, Option.match(row, { onNone: () => 0, onSome: ({ due }) => due }))
})

/**
 * The database connections. @effect/sql-pg's pool keeps its counts to itself (PgClient exposes only its
 * configuration), so on PostgreSQL the connections in use and idle are PostgreSQL's own view of the
 * sessions carrying this process's application name (`herald/<host>/<pid>`) on this database, and `max` is
 * this process's pool size. The embedded database is one PGlite session that the
 * bridged connections take in turns: `max` is 1, and nothing is reported as in use or idle, because
 * waiting for that session shows in request latency, not in a pool.
 */
const setPool = Effect.fnUntraced(function*(sql: SqlClient.SqlClient, client: PgClient.PgClient, backend: string) {
  if (backend === "embedded") {
    yield* Metric.update(poolState("max"), 1)
    return
  }
  const config: PgClient.PgPoolConfig = client.config
  const found = yield* dieOnBadRow(Effect.provideService(sessions(config.applicationName ?? ""), SqlClient.SqlClient, sql))
  const row = Option.getOrUndefined(found)
  yield* Metric.update(poolState("in_use"), row?.inUse ?? 0)
  yield* Metric.update(poolState("idle"), row?.idle ?? 0)
  yield* Metric.update(poolState("max"), config.maxConnections ?? defaultMaxConnections)
})

/**
 * Sets the scrape-time gauges. A database that does not answer leaves them out of this scrape (rather than
 * repeating stale values) and the events' series are still served.
 */
const setGauges = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const client = yield* PgClient.PgClient
  const info = yield* DatabaseInfo.DatabaseInfo
  yield* Effect.all([setPostsDue(sql), setPool(sql, client, info.backend)], { discard: true }).pipe(
    Effect.catch((error) =>
      Effect.andThen(
        Effect.logWarning("The metrics' database gauges could not be read", error),
        Effect.all([Metric.remove(Metrics.postsDueNextHour), ...(["in_use", "idle", "max"] as const).map((state) => Metric.remove(poolState(state)))], { discard: true })
      )
    )
  )
})

const scrape = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  if (!opens(yield* MetricsToken, request)) return yield* notFound(request)
  yield* setGauges
  return HttpServerResponse.text(yield* PrometheusMetrics.format(), { contentType })
})

export const layer = HttpRouter.add("GET", "/metrics", scrape)
