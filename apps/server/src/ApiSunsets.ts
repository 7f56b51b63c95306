import { type Adapter, ApiVersion } from "@herald/adapter-kit"
import { Networks } from "@herald/core"
import { Clock, Effect, Layer } from "effect"

// The network API versions the installed adapters call, checked against their sunsets once at start-up: an
// operator hears that a version is about to be retired while there is time to update Herald, instead of
// finding every call to that network failing (one adapter called a version for two months after its
// network retired it). apps/server/test/ApiVersions.test.ts fails 30 days before, so a release is never made
// that close.

/** How many days before a version's sunset start-up warns of it. */
const warnWithinDays = 60

/** One line per installed network whose API version is retired, or retires within 60 days of `now`. */
export const warnings = (adapters: ReadonlyArray<Adapter.Adapter>, now: Date): ReadonlyArray<string> =>
  adapters.flatMap((adapter) => {
    const line = ApiVersion.warning(adapter.name, adapter.api, now, warnWithinDays)
    return line === undefined ? [] : [line]
  })

/** Logs `warnings` for the installed networks as the process starts. */
export const layer = Layer.effectDiscard(Effect.gen(function*() {
  const { all } = yield* Networks.Networks
  const now = new Date(yield* Clock.currentTimeMillis)
  for (const line of warnings(all, now)) yield* Effect.logWarning(line)
}))
