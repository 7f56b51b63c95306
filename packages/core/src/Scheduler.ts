import { Context, type Effect } from "effect"

/**
 * Hands a scheduled post to the publishing engine: the post goes out at `at` if its `version` is still
 * the current one then. The post row stays the truth; a message lost on the way is found again by the
 * engine's sweep, so callers do not wait for or depend on this.
 */
export class Scheduler extends Context.Service<Scheduler, {
  schedule(postId: string, version: number, at: Date): Effect.Effect<void>
}>()("@herald/core/Scheduler") {}
