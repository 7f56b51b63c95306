import { Context, Duration, Effect, Layer } from "effect"
import { Sharding, ShardingConfig, ShardId } from "effect/cluster"
import { SqlClient } from "effect/sql"
import { MigrationState } from "@herald/db"

/**
 * Whether this process should be sent work (`GET /ready`), as opposed to whether it is alive (`/health`).
 * Ready means: the database answers, its migrations are exactly the code's, and, in a process that runs
 * workers, the cluster runner holds at least one shard (a runner that holds none publishes nothing: it is
 * still starting, or every shard is held by others that have not let go yet).
 */
export interface Checks {
  readonly database: "ok" | "unreachable"
  /** `unknown` when the database does not answer, so the migrations cannot be read. */
  readonly migrations: "ok" | "behind" | "ahead" | "unknown"
  readonly shards: "ok" | "no_shards" | "not_applicable"
}

/** The checks of a ready process. */
export interface ReadyChecks extends Checks {
  readonly database: "ok"
  readonly migrations: "ok"
  readonly shards: "ok" | "not_applicable"
}

/** Ready when no check failed. */
export const isReady = (checks: Checks): checks is ReadyChecks =>
  checks.database === "ok" && checks.migrations === "ok" && checks.shards !== "no_shards"

// A database that takes longer than this is as good as unreachable to a load balancer.
const databaseTimeout = Duration.seconds(5)

// Herald's cluster keeps the library's shard groups and count (apps/server/src/Cluster.ts tunes only
// timings), so these are the shards any runner of it can hold.
const allShards = ShardingConfig.defaults.assignedShardGroups.flatMap((group) =>
  Array.from({ length: ShardingConfig.defaults.shardsPerGroup }, (_, index) => ShardId.make(group, index + 1))
)

export class Readiness extends Context.Service<Readiness, {
  readonly check: Effect.Effect<Checks>
}>()("@herald/server/Readiness") {
  /** `runsWorkers`: the process runs post entities (role `all` or `worker`), so it must hold shards. */
  static readonly layer = (options: { readonly runsWorkers: boolean }) =>
    Layer.effect(Readiness, Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const sharding = yield* Sharding.Sharding
      const migrations = MigrationState.check.pipe(
        Effect.map((state) => state === "current" ? "ok" as const : state),
        Effect.provideService(SqlClient.SqlClient, sql),
        Effect.timeout(databaseTimeout)
      )
      const shards = Effect.sync(() =>
        !options.runsWorkers
          ? "not_applicable" as const
          : allShards.some((shardId) => sharding.hasShardId(shardId)) ? "ok" as const : "no_shards" as const
      )
      return Readiness.of({
        // One statement answers both: the database is reachable when the migrations' table can be read.
        check: Effect.gen(function*() {
          const migrationsCheck = yield* Effect.orElseSucceed(migrations, () => "unknown" as const)
          return {
            database: migrationsCheck === "unknown" ? "unreachable" as const : "ok" as const,
            migrations: migrationsCheck,
            shards: yield* shards
          }
        })
      })
    }))
}
