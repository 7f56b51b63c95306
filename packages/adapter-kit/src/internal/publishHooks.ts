import type { Effect, Option } from "effect"
import type { PostVersion } from "../PostVersion.ts"
import type { PublishError } from "../PublishError.ts"
import type { Account } from "./connectHooks.ts"

/**
 * The publishing part of the adapter contract (re-exported by `Adapter`): what `publish`, `poll` and
 * `reconcile` are given and answer.
 */

/** What the network made of a post: its id and the link a person opens. */
export interface Published {
  readonly id: string
  readonly url: string
}

/**
 * One step of publishing. Most networks answer at once; Instagram and Threads containers, TikTok publish
 * ids and YouTube processing answer `Processing` with a handle to `poll` after `checkAfterMs`, so the
 * engine can wait durably between polls.
 */
export type PublishStep =
  | { readonly _tag: "Published"; readonly published: Published }
  | { readonly _tag: "Processing"; readonly handle: string; readonly checkAfterMs: number }

/**
 * The next step, at once. What a step answers as soon as a call that made something on the network has
 * answered (the post, a reply), so that nothing after that call in the same step can fail it and have the
 * engine send the step, and so the call, again: the link read and the first comment are the next steps'.
 */
export const nextStep = (handle: string): PublishStep => ({ _tag: "Processing", handle, checkAfterMs: 0 })

export interface PublishInput {
  readonly account: Account
  readonly post: PostVersion
  /**
   * Set on a `poll` whose previous try at the same step was cut off (Herald stopped) before its answer
   * was recorded: a step that makes something (the next reply of a thread) may already have made it, so
   * look before making it again.
   */
  readonly resumed?: boolean | undefined
  /**
   * Herald's name for this post going to this account: the same on every try (a retry, a resume after a
   * crash), different for every other post, even one with the same text. A network that takes an
   * idempotency key (Mastodon's `Idempotency-Key`) derives it from this, so a resend is never a second post
   * and a second post is never mistaken for a resend. Absent when a caller has none (the suite's own calls).
   */
  readonly publication?: string | undefined
}

/**
 * What `reconcile` is asked with. `handle` is set when the answer lost was that of a later step, one that
 * `makesPost` names (a container published in `poll`): the step's handle, so the adapter can ask the network
 * about what that step was given (the container) and not only look for the post by its text. Absent after a
 * lost `publish`.
 */
export interface ReconcileInput extends PublishInput {
  readonly handle?: string | undefined
}
