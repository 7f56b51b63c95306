import { Context, Effect, Layer } from "effect"

/**
 * Hands a scheduled post to the publishing engine: the post goes out at `at` if its `version` is still
 * the current one then. The post row stays the truth; a message lost on the way is found again by the
 * engine's sweep, so callers do not wait for or depend on this.
 */
export class Scheduler extends Context.Service<Scheduler, {
  schedule(postId: string, version: number, at: Date): Effect.Effect<void>
}>()("@herald/core/Scheduler") {
  /**
   * Remembers what was scheduled and sends nothing: for processes and tests that store posts but run no
   * engine.
   */
  static readonly layerRecording = (into: Array<{ readonly postId: string; readonly version: number; readonly at: Date }>) =>
    Layer.succeed(Scheduler, Scheduler.of({ schedule: (postId, version, at) => Effect.sync(() => void into.push({ postId, version, at })) }))
}
