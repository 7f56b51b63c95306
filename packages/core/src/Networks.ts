import { Context, Effect, Layer, Schema } from "effect"
import type { Adapter } from "@herald/adapter-kit"
import * as PostShape from "./PostShape.ts"

export class UnknownNetwork extends Schema.TaggedError<UnknownNetwork>()("UnknownNetwork", {
  network: Schema.String,
  available: Schema.Array(Schema.String)
}) {
  override get message() {
    return `Unknown network "${this.network}"; available: ${this.available.join(", ") || "none"}`
  }
}

/**
 * The networks this installation offers: whatever adapters the app hands in. The core never names a
 * concrete network, so a third party's adapter package is offered by adding it to the app's list.
 */
export class Networks extends Context.Service<Networks, {
  readonly all: ReadonlyArray<Adapter.Adapter>
  get(network: string): Effect.Effect<Adapter.Adapter, UnknownNetwork>
}>()("@herald/core/Networks") {
  static readonly make = (adapters: ReadonlyArray<Adapter.Adapter>) => {
    const byKey = new Map<string, Adapter.Adapter>()
    for (const adapter of adapters) {
      if (byKey.has(adapter.network)) {
        return Effect.die(new Error(`Two adapters claim the network "${adapter.network}"`))
      }
      byKey.set(adapter.network, adapter)
    }
    const clashes = PostShape.clashes(adapters)
    if (clashes.length > 0) return Effect.die(new Error(clashes.join("; ")))
    const available = [...byKey.keys()]
    return Effect.succeed(Networks.of({
      all: adapters,
      get: (network) => {
        const adapter = byKey.get(network)
        return adapter === undefined
          ? Effect.fail(new UnknownNetwork({ network, available }))
          : Effect.succeed(adapter)
      }
    }))
  }

  static readonly layer = <E, R>(adapters: Effect.Effect<ReadonlyArray<Adapter.Adapter>, E, R>) =>
    Layer.effect(Networks, Effect.flatMap(adapters, Networks.make))
}
