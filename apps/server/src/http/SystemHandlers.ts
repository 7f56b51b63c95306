import { Duration, Effect, Exit, Option } from "effect"
import * as HandlerGroup from "./HandlerGroup.ts"
import { SqlClient } from "effect/sql"
import { HeraldApi, SystemApi } from "@herald/api"
import { StorageFaults } from "@herald/core"
import { isReady, Readiness } from "../Readiness.ts"
import { NetworkWatch } from "../NetworkWatch.ts"

/** What the probes read. */
export type Services = SqlClient.SqlClient | Readiness | StorageFaults.StorageFaults

/**
 * Liveness: the database answers within 5 s, and its disk is not full (a request met a full disk, and no write
 * has succeeded since: reading still works then, saving does not).
 */
export const health = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const faults = yield* StorageFaults.StorageFaults
  const answered = yield* sql`SELECT 1`.pipe(Effect.timeout(Duration.seconds(5)), Effect.exit)
  if (Exit.isFailure(answered)) {
    return yield* new SystemApi.HealthUnavailable({ status: "unavailable", database: "unreachable" })
  }
  if (Option.isSome(yield* faults.full)) {
    return yield* new SystemApi.HealthUnavailable({ status: "unavailable", database: "full" })
  }
  return new SystemApi.Health({ status: "ok", database: "ok" })
})

/** Readiness: every check of `Readiness` passed; a network not answering is named, not a reason to be unready. */
export const ready = Effect.flatMap(Effect.service(Readiness), (readiness) =>
  Effect.flatMap(readiness.check, (checks) =>
    isReady(checks)
      ? Effect.map(degradedNetworks, (networks) =>
        new SystemApi.Ready({ status: "ready", checks, ...(Object.keys(networks).length > 0 ? { networks } : {}) }))
      : Effect.fail(new SystemApi.NotReady({ status: "not_ready", checks }))))

const degradedNetworks = Effect.flatMap(
  Effect.serviceOption(NetworkWatch),
  Option.match({ onNone: () => Effect.succeed({}), onSome: (watch) => watch.degraded })
)

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
