import { Duration, Layer, Option } from "effect"
import { RunnerAddress, RunnerHealth, Runners, Sharding, ShardingConfig, SqlRunnerStorage } from "effect/cluster"
import * as NodeClusterSocket from "@effect/platform-node/NodeClusterSocket"
import * as NodeCrypto from "@effect/platform-node/NodeCrypto"
import type { Settings } from "@herald/core"
import * as ClusterStorage from "./ClusterStorage.ts"
import * as Takeovers from "./Takeovers.ts"

// Shared by every runner. Due messages are looked for every half second, so a post goes out within a
// second of its time; idle post entities leave memory after 30 s.
const tuning: Partial<ShardingConfig.ShardingConfig["Service"]> = {
  entityMessagePollInterval: Duration.millis(500),
  entityMaxIdleTime: Duration.seconds(30),
  maxResidentEntities: 100_000,
  // Messages to entities of this process are handed over as they are, not encoded and decoded on the way.
  simulateRemoteSerialization: false
}

// Several runners over PostgreSQL. A runner that dies is dropped, and its shards taken over, within 10 s
// (5.8 to 6.8 s measured by bench/takeover): its heartbeat (written every 2 s, a third of the lock expiry) is stale after 6 s, each runner reads the
// runner list every second, and the runner running the health check pings the others every 2 s (a dead one
// is refused at once). A killed process's advisory shard locks go with its connection; a frozen one's with
// its session, ended by the server after the same 6 s. A pause of a second or two loses nothing: the
// heartbeat is then 3 to 4 s old. With the library's defaults (35 s expiry, a health check a minute) a
// dead runner kept its shards for 32 to 36 s. (One runner alone has nobody to take over from, and keeps
// the defaults.)
const takeover: Partial<ShardingConfig.ShardingConfig["Service"]> = {
  shardLockExpiration: Duration.seconds(6),
  shardLockRefreshInterval: Duration.seconds(2),
  refreshAssignmentsInterval: Duration.seconds(1),
  runnerHealthCheckInterval: Duration.seconds(2)
}

export type Tuning = Partial<ShardingConfig.ShardingConfig["Service"]>

/**
 * The cluster under publishing. One process over the embedded database (or a test's database): a single
 * runner with its state in SQL; PGlite behind the bridge cannot hold advisory locks per connection, so
 * shard locks are rows. Over a PostgreSQL server: socket runners that find each other through the
 * database, each logging the shards it takes over from another; an `api` process is a client only and
 * runs no entities.
 */
export const layer = (options: {
  readonly mode: "single" | "socket"
  readonly role: Settings.Role
  readonly runnerHost: string
  readonly runnerPort: number
  /** Overrides for tests (a shorter wait for entities to stop, say). */
  readonly tuning?: Tuning | undefined
}) => {
  const tuned = { ...tuning, ...options.tuning }
  return options.mode === "single"
    ? single({ ...tuned, shardLockDisableAdvisory: true })
    : socket(options.role === "api", {
      ...takeover,
      ...tuned,
      runnerAddress: Option.some(RunnerAddress.make(options.runnerHost, options.runnerPort)),
      runnerListenAddress: Option.some(RunnerAddress.make(options.runnerHost, options.runnerPort))
    })
}

// SingleRunner.layer with runner state in SQL, but Herald's message storage (its replies in one statement).
const single = (config: Tuning) =>
  Sharding.layer.pipe(
    Layer.provideMerge(Runners.layerNoop),
    Layer.provideMerge(ClusterStorage.layer),
    Layer.provide([Layer.orDie(SqlRunnerStorage.layer), RunnerHealth.layerNoop]),
    Layer.provide(ShardingConfig.layerFromEnv(config)),
    Layer.provide(NodeCrypto.layerDigest)
  )

// The storage is built here rather than by the socket layer, so that the takeover log reads the same
// runner list the cluster does.
const socket = (clientOnly: boolean, config: Tuning) => {
  const storage = Layer.mergeAll(
    ClusterStorage.layer,
    Layer.orDie(SqlRunnerStorage.layer)
  )
  const sharding = NodeClusterSocket.layer({ clientOnly, storage: "byo", shardingConfig: config })
  return (clientOnly ? sharding : Layer.provideMerge(Takeovers.layer, sharding)).pipe(
    Layer.provideMerge(storage),
    Layer.provide(ShardingConfig.layerFromEnv(config))
  )
}
