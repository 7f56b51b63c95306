import { Duration, Effect } from "effect"
import * as HandlerGroup from "./HandlerGroup.ts"
import { SqlClient } from "effect/sql"
import { HeraldApi, SystemApi } from "@herald/api"
import { isReady, Readiness } from "../Readiness.ts"

/** What the probes read. */
export type Services = SqlClient.SqlClient | Readiness

/** Liveness: the database answers within 5 s. */
export const health = Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) =>
  sql`SELECT 1`.pipe(
    Effect.timeout(Duration.seconds(5)),
    Effect.as(new SystemApi.Health({ status: "ok", database: "ok" })),
    Effect.catchCause(() =>
      Effect.fail(new SystemApi.HealthUnavailable({ status: "unavailable", database: "unreachable" }))
    )
  ))

/** Readiness: every check of `Readiness` passed. */
export const ready = Effect.flatMap(Effect.service(Readiness), (readiness) =>
  Effect.flatMap(readiness.check, (checks) =>
    isReady(checks)
      ? Effect.succeed(new SystemApi.Ready({ status: "ready", checks }))
      : Effect.fail(new SystemApi.NotReady({ status: "not_ready", checks }))))

export const layer = (api: HeraldApi.HeraldApi) => HandlerGroup.group(
  api,
  "system",
  Effect.fnUntraced(function*(handlers) {
    const context = yield* Effect.context<Services>()
    return handlers
      .handle("health", () => Effect.provideContext(health, context))
      .handle("ready", () => Effect.provideContext(ready, context))
  })
)
