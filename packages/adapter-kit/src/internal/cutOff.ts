import { assert } from "@effect/vitest"
import { Cause, Duration, Effect, Exit, Option } from "effect"
import { HttpClient } from "effect/http"
import type * as Adapter from "../Adapter.ts"
import type { Context } from "../AdapterSuite.ts"
import type { PostVersion } from "../PostVersion.ts"
import type { PublishError } from "../PublishError.ts"

// The crash the conformance suite stages at every step of publishing: the network's call goes through and
// its answer arrives, then Herald stops before recording it. The adapter's HTTP client counts the calls to
// the simulator and, at the one armed, dies after the answer (a defect, which no adapter code catches, as a
// killed process runs none of its own code either). The suite then does what the engine does on its next
// start (packages/core/src/Publisher.ts): a cut `poll` is asked again with `resumed: true` and the same
// handle; a cut `publish` is settled with `reconcile` (found: published; absent: sent again; no reconcile or
// it cannot tell: the outcome is unknown).

/** The defect that stands for Herald stopping right after a network call. */
export class CutOff extends Error {
  readonly call: string
  constructor(call: string) {
    super(`cut off after ${call}`)
    this.call = call
  }
}

export class Cutter {
  /** Calls made to the network (the simulator) since the cutter was last armed. */
  calls = 0
  /** The calls, as `METHOD /path`, in order. */
  readonly log: Array<string> = []
  private at: number | undefined
  private readonly networkRoot: string

  constructor(networkRoot: string) {
    this.networkRoot = networkRoot
  }

  /** Cuts off right after the `at`-th network call from now (1-based). */
  arm(at: number): void {
    this.at = at
    this.calls = 0
    this.log.length = 0
  }

  disarm(): void {
    this.at = undefined
  }

  /** The client the adapter is built with: the real one, which dies after the armed call's answer. */
  wrap = <E, R>(client: HttpClient.HttpClient.With<E, R>): HttpClient.HttpClient.With<E, R> =>
    HttpClient.transform(client, (response, request) =>
      Effect.flatMap(response, (answer) => {
        // Media downloads from Herald's own server are no network call.
        if (!request.url.startsWith(this.networkRoot)) return Effect.succeed(answer)
        const call = `${request.method} ${request.url.slice(this.networkRoot.length).split("?")[0]}`
        this.calls++
        this.log.push(call)
        if (this.calls !== this.at) return Effect.succeed(answer)
        this.at = undefined
        return Effect.die(new CutOff(call))
      }))
}

/** Where a run was cut: which entry point was under way, and after which network call. */
export interface Cut {
  readonly entry: "publish" | "poll"
  readonly call: string
}

export type Outcome =
  | { readonly _tag: "Published"; readonly published: Adapter.Published }
  | { readonly _tag: "Unknown"; readonly message: string }

export interface Run {
  readonly outcome: Outcome
  /** Undefined when the run ended before the armed call: the post has no step that far. */
  readonly cut: Cut | undefined
  /** Every network call of the run, cut or not. */
  readonly calls: ReadonlyArray<string>
}

const cutOf = <A, E>(exit: Exit.Exit<A, E>): CutOff | undefined => {
  if (Exit.isSuccess(exit)) return undefined
  const defect = exit.cause.reasons.find(Cause.isDieReason)?.defect
  return defect instanceof CutOff ? defect : undefined
}

/**
 * Publishes `input` as the engine does, cut off after the `at`-th network call and taken over as the engine
 * takes a crashed target over. Answers how the target ended.
 */
export const runCutAt = (
  adapter: Adapter.Adapter,
  cutter: Cutter,
  input: Adapter.PublishInput,
  at: number
): Effect.Effect<Run> =>
  Effect.gen(function*() {
    let cut: Cut | undefined
    let step: { readonly call: "publish" } | { readonly call: "poll"; readonly handle: string } = { call: "publish" }
    let resumed = false
    cutter.arm(at)
    const end = (outcome: Outcome): Run => {
      cutter.disarm()
      return { outcome, cut, calls: [...cutter.log] }
    }
    // After a lost `publish`: what the engine asks the network.
    const settle = Effect.fnUntraced(function*() {
      if (adapter.reconcile === undefined) {
        return { _tag: "Unknown", message: `${adapter.name} has no reconcile` } as const
      }
      const found = yield* Effect.result(adapter.reconcile(input))
      if (found._tag === "Failure") return { _tag: "Unknown", message: found.failure.message } as const
      return Option.match(found.success, {
        onNone: () => undefined,
        onSome: (published) => ({ _tag: "Published", published } as const)
      })
    })
    for (let attempts = 0; attempts < 100; attempts++) {
      const exit: Exit.Exit<Adapter.PublishStep, PublishError> = yield* Effect.exit(
        step.call === "publish"
          ? adapter.publish(input)
          : adapter.poll === undefined
          ? Effect.die(new Error(`${adapter.name} answered Processing but has no poll hook`))
          : adapter.poll(resumed ? { ...input, resumed: true } : input, step.handle)
      )
      resumed = false
      const stopped = cutOf(exit)
      if (stopped !== undefined) {
        cut = { entry: step.call, call: stopped.call }
        if (step.call === "poll") {
          resumed = true
          continue
        }
        const settled = yield* settle()
        if (settled !== undefined) return end(settled)
        continue
      }
      if (Exit.isFailure(exit)) {
        const error = Cause.findErrorOption(exit.cause)
        if (Option.isNone(error)) return yield* Effect.die(Cause.squash(exit.cause))
        if (error.value.reason._tag !== "OutcomeUnknown") {
          return yield* Effect.die(new Error(`${step.call} failed after the cut: ${error.value.message}`))
        }
        if (step.call === "publish") {
          const settled = yield* settle()
          if (settled !== undefined) return end(settled)
          continue
        }
        return end({ _tag: "Unknown", message: error.value.message })
      }
      const answer: Adapter.PublishStep = exit.value
      if (answer._tag === "Published") return end({ _tag: "Published", published: answer.published })
      step = { call: "poll", handle: answer.handle }
      yield* Effect.sleep(Duration.millis(Math.min(answer.checkAfterMs, 10)))
    }
    return yield* Effect.die(new Error("still processing after 100 steps"))
  })

/** A form of post the cut-off cases publish: its parts (text, thread, first comment) must each be made once. */
export interface Form {
  readonly name: string
  readonly make: (text: string) => PostVersion
}

/** How many of the account's posts and comments on the simulator have exactly this text. */
const madeWithText = (context: Context, accountId: string, text: string) =>
  context.simulator.state.postsOf(accountId).filter((entry) => entry.text === text).length +
  context.simulator.state.commentsAfter(accountId, 0).filter((entry) => entry.text === text).length

/**
 * Cuts a publication off after its `at`-th network call and takes it over as the engine would; checks
 * nothing was made twice and the outcome names the post the network has. Answers the run (no cut when the
 * post has fewer calls than `at`).
 */
export const checkCutOffAt = (context: Context, account: Adapter.Account, form: Form, at: number) =>
  Effect.gen(function*() {
    const text = `cut ${form.name} after call ${at} ${Date.now()}`
    const version = form.make(text)
    const run = yield* runCutAt(context.adapter, context.cutter, { account, post: version }, at)
    const where = `${form.name} post cut after call ${at} (${run.cut?.entry ?? "no cut"}: ${run.cut?.call ?? "-"}); calls: ${run.calls.join(", ")}`
    const parts = [version.text, ...version.thread, ...(version.firstComment === null ? [] : [version.firstComment])]
    for (const part of parts) {
      assert.isAtMost(madeWithText(context, account.networkAccountId, part), 1, `made twice: "${part}", ${where}`)
    }
    if (run.outcome._tag === "Unknown") {
      // Only where the network cannot be asked: a cut inside `publish` of an adapter without `reconcile`.
      assert.isTrue(
        run.cut?.entry === "publish" && context.adapter.reconcile === undefined,
        `outcome unknown (${run.outcome.message}), ${where}`
      )
      return run
    }
    for (const part of parts) {
      assert.strictEqual(madeWithText(context, account.networkAccountId, part), 1, `missing: "${part}", ${where}`)
    }
    const stored = context.simulator.state.postsOf(account.networkAccountId).find((entry) => entry.text === version.text)
    assert.strictEqual(run.outcome.published.id, stored?.id, `wrong id, ${where}`)
    assert.strictEqual(run.outcome.published.url, stored?.url, `wrong link, ${where}`)
    return run
  })
