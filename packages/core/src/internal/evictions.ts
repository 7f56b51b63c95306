import { Duration, Effect, Queue, Schedule } from "effect"
import type { PgClient } from "@effect/sql-pg"

/**
 * Keeps a process-local cache honest across every process sharing the database: each payload announced on
 * `channel` (with `pg.notify`) is evicted here. If the listening connection drops, a notice may have been
 * missed, so the whole cache is dropped and listening starts again.
 */
export const listenForEvictions = (
  pg: PgClient.PgClient,
  channel: string,
  cache: { delete(key: string): unknown; clear(): void }
) =>
  Effect.scoped(Effect.gen(function*() {
    const queue = yield* pg.listen(channel)
    while (true) {
      const notification = yield* Queue.take(queue)
      cache.delete(notification.payload)
    }
  })).pipe(
    Effect.tapCause(() => Effect.sync(() => cache.clear())),
    Effect.retry(Schedule.spaced(Duration.seconds(1))),
    Effect.forkScoped
  )
