import { Clock, Duration, Effect, Layer, Option, Schedule } from "effect"
import { type RunnerAddress, RunnerStorage, ShardId, Sharding, ShardingConfig } from "effect/cluster"

/** How long after a runner left the shards this runner gains are counted as taken over from it. */
const departureWindow = Duration.minutes(1)

const describe = (address: RunnerAddress.RunnerAddress) => `${address.host}:${address.port}`

/**
 * Says when this runner takes over the shards of another: `took over N shards of runner R`. The cluster
 * moves shards silently; this watches the runners it knows of and the shards this runner holds, and names
 * the runners that left (stopped, or found dead) shortly before this runner gained shards.
 */
export const layer = Layer.effectDiscard(Effect.gen(function*() {
  const sharding = yield* Sharding.Sharding
  const runnerStorage = yield* RunnerStorage.RunnerStorage
  const config = yield* ShardingConfig.ShardingConfig
  const self = Option.map(config.runnerAddress, describe)
  const shardIds = config.assignedShardGroups.flatMap((group) =>
    Array.from({ length: config.shardsPerGroup }, (_, index) => ShardId.make(group, index + 1))
  )

  let held = new Set<ShardId.ShardId>()
  let alive = new Set<string>()
  /** Runners that left, by address, with when this runner noticed. */
  const departed = new Map<string, number>()

  const look = Effect.gen(function*() {
    const runners = yield* runnerStorage.getRunners
    const now = yield* Clock.currentTimeMillis
    const present = new Set<string>()
    for (const [runner, healthy] of runners) {
      const address = describe(runner.address)
      if (healthy && !Option.contains(self, address)) present.add(address)
    }
    for (const address of alive) if (!present.has(address)) departed.set(address, now)
    for (const [address, since] of departed) {
      if (present.has(address) || now - since > Duration.toMillis(departureWindow)) departed.delete(address)
    }
    alive = present

    const holding = new Set(shardIds.filter((shardId) => sharding.hasShardId(shardId)))
    const gained = [...holding].filter((shardId) => !held.has(shardId)).length
    held = holding
    if (gained === 0 || departed.size === 0) return
    const from = [...departed.keys()]
    yield* Effect.logInfo(`took over ${gained} shards of runner${from.length === 1 ? "" : "s"} ${from.join(", ")}`).pipe(
      Effect.annotateLogs({ shards: gained, from: from.join(","), holding: holding.size })
    )
  }).pipe(Effect.catchCause((cause) => Effect.logWarning("Could not look for shards taken over", cause)))

  yield* Effect.forkScoped(Effect.repeat(look, Schedule.spaced(Duration.seconds(1))))
}))
