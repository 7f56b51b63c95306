import { Deferred, Effect, Semaphore } from "effect"
import { HttpRouter } from "effect/http"
import type { Simulator } from "./Simulator.ts"
import type { Change, Saved } from "./SimulatorState.ts"

/**
 * Where simulators' state is kept so that it outlives a restart and is the same in every process: the
 * records each request wrote are saved, and before each request the records other processes saved since
 * are loaded. The server keeps them in its database; `memory` shares them between states in one process
 * (tests of a restart or of a second process without a database).
 */
export interface SimulatorStore {
  /** The records of a network's simulator saved after `version`, in the store's order. */
  readonly since: (network: string, version: number) => Effect.Effect<ReadonlyArray<Saved>>
  /** Saves records written by one state instance, each taking the next version. */
  readonly save: (network: string, origin: string, changes: ReadonlyArray<Change>) => Effect.Effect<void>
}

/** A store in this process's memory: what survives is the store, whichever states come and go. */
export const memory = (): SimulatorStore => {
  const records = new Map<string, Saved & { readonly network: string }>()
  let version = 0
  return {
    since: (network, after) =>
      Effect.sync(() =>
        [...records.values()]
          .filter((record) => record.network === network && record.version > after)
          .sort((a, b) => a.version - b.version)
      ),
    save: (network, origin, changes) =>
      Effect.sync(() => {
        for (const change of changes) {
          const key = JSON.stringify([network, change.kind, change.key])
          // A key saved again moves to the end of the order, as an upsert taking a new version does.
          records.delete(key)
          records.set(key, { ...change, network, origin, version: ++version })
        }
      })
  }
}

export interface ServeOptions {
  /**
   * Other processes may save to the store while this one runs (a database server shared by several
   * processes): every call loads what they saved first. Otherwise (an embedded database, one process)
   * only the first call loads, since nothing else writes.
   */
  readonly shared: boolean
}

/**
 * A simulator's routes, each of which first loads what other processes saved since the last load, and
 * saves what it wrote before its answer goes out: whatever answer a caller got, every process (and this one
 * after a restart) knows what it stood on. Saves of one simulator go one at a time, each taking everything
 * written so far, so an answer never overtakes the save of what it wrote.
 */
export const serve = (
  simulator: Simulator,
  store: SimulatorStore,
  options: ServeOptions
): ReadonlyArray<HttpRouter.Route<never, never>> => {
  const { network, state } = simulator
  let loaded = false
  const saving = Semaphore.makeUnsafe(1)
  // Uninterruptible: changes taken from the state are saved even when the caller has gone.
  const save = Effect.uninterruptible(saving.withPermits(1)(Effect.suspend(() => {
    const changes = state.takeChanges()
    return changes.length === 0 ? Effect.void : store.save(network, state.origin, changes)
  })))
  // A call needs a load that started after it arrived. Loads coalesce: while one runs, the calls arriving
  // wait for the next, which starts when it ends and serves them all (one query however many calls).
  let running: Deferred.Deferred<void> | undefined
  let queued: Deferred.Deferred<void> | undefined
  const runLoad = (done: Deferred.Deferred<void>): Effect.Effect<void> =>
    Effect.flatMap(store.since(network, state.version), (saved) => Effect.sync(() => state.load(saved))).pipe(
      Effect.exit,
      Effect.flatMap((exit) =>
        Effect.suspend(() => {
          Deferred.doneUnsafe(done, exit)
          loaded = true
          running = queued
          queued = undefined
          return running === undefined ? Effect.void : runLoad(running)
        })
      )
    )
  const load = Effect.suspend(() => {
    if (loaded && !options.shared) return Effect.void
    if (running === undefined) {
      const started = Deferred.makeUnsafe<void>()
      running = started
      return Effect.andThen(Effect.forkDetach(runLoad(started)), Deferred.await(started))
    }
    queued ??= Deferred.makeUnsafe<void>()
    return Deferred.await(queued)
  })
  return simulator.routes.map((route) =>
    HttpRouter.route(
      route.method,
      route.path,
      Effect.andThen(save, load).pipe(Effect.andThen(route.handler), Effect.tap(() => save)),
      { uninterruptible: route.uninterruptible }
    )
  )
}
