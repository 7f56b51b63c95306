import { Duration, Layer, Option } from "effect"
import { RunnerAddress, type ShardingConfig, SingleRunner } from "effect/cluster"
import { NodeClusterSocket, NodeCrypto } from "@effect/platform-node"
import type { Settings } from "@herald/core"

// Shared by every runner. Due messages are looked for every half second, so a post goes out within a
// second of its time; idle post entities leave memory after 30 s; a runner that stops answering is
// dropped (and its shards taken over) within seconds rather than the default minute.
const tuning: Partial<ShardingConfig.ShardingConfig["Service"]> = {
  entityMessagePollInterval: Duration.millis(500),
  entityMaxIdleTime: Duration.seconds(30),
  maxResidentEntities: 100_000,
  runnerHealthCheckInterval: Duration.seconds(5),
  // Messages to entities of this process are handed over as they are, not encoded and decoded on the way.
  simulateRemoteSerialization: false
}

export type Tuning = Partial<ShardingConfig.ShardingConfig["Service"]>

/**
 * The cluster under publishing. One process over the embedded database (or a test's database): a single
 * runner with its state in SQL; PGlite behind the bridge cannot hold advisory locks per connection, so
 * shard locks are rows. Over a PostgreSQL server: socket runners that find each other through the
 * database; an `api` process is a client only and runs no entities.
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
    ? SingleRunner.layer({ runnerStorage: "sql", shardingConfig: { ...tuned, shardLockDisableAdvisory: true } }).pipe(
      Layer.provide(NodeCrypto.layerDigest)
    )
    : NodeClusterSocket.layer({
      clientOnly: options.role === "api",
      shardingConfig: {
        ...tuned,
        runnerAddress: Option.some(RunnerAddress.make(options.runnerHost, options.runnerPort)),
        runnerListenAddress: Option.some(RunnerAddress.make(options.runnerHost, options.runnerPort))
      }
    })
}
