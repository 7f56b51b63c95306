import { Duration, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { HeraldApi, SystemApi } from "@herald/api"

export const layer = (api: HeraldApi.HeraldApi) => HttpApiBuilder.group(
  api,
  "system",
  Effect.fnUntraced(function*(handlers) {
    const sql = yield* SqlClient.SqlClient
    return handlers.handle("health", () =>
      sql`SELECT 1`.pipe(
        Effect.timeout(Duration.seconds(5)),
        Effect.as(new SystemApi.Health({ status: "ok", database: "ok" })),
        Effect.catchCause(() =>
          Effect.fail(new SystemApi.HealthUnavailable({ status: "unavailable", database: "unreachable" }))
        )
      ))
  })
)
