import { Effect } from "effect"
import { Harness, type Options, withHarness } from "./internal/suiteHarness.ts"
import { mediaCases } from "./internal/suiteMediaCases.ts"
import { textCases } from "./internal/suiteTextCases.ts"

/**
 * The conformance suite every adapter runs against its own simulator over real HTTP: connect through
 * OAuth, refresh, publish text, photos and a video, the sandbox errors, and reconcile; skipping what the
 * adapter's capabilities say it does not do. Network quirks go in `extra`. The harness and options are in
 * internal/suiteHarness.ts, the steps a network's own tests use in internal/suiteSteps.ts and
 * internal/suiteInbox.ts, the cases in internal/suiteTextCases.ts and internal/suiteMediaCases.ts.
 */

export { type Context, Harness, harness, type OptionSample, type Options, withHarness } from "./internal/suiteHarness.ts"
export {
  answerComment,
  answerMessage,
  checkAnswerErrors,
  checkMessageArrived,
  checkNoMessages,
  checkNothingNew,
  control,
  inboxOf,
  startInbox,
  type StartInboxOptions
} from "./internal/suiteInbox.ts"
export { checkFoundThroughHandle, checkGoneMediaRefused, connect, media, post, publishToEnd } from "./internal/suiteSteps.ts"

export const suite = (name: string, options: Options) =>
  withHarness(options)(
    `${name} conformance`,
    (it) => {
      const context = Effect.service(Harness)

      textCases(it, context, options)
      mediaCases(it, context, options)
      options.extra?.(it, context)
    }
  )
