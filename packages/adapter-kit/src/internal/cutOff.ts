import { assert } from "@effect/vitest"
import { Cause, Duration, Effect, Exit, Option } from "effect"
import { HttpClient, HttpClientError } from "effect/http"
import type * as Adapter from "../Adapter.ts"
import type { Context } from "../AdapterSuite.ts"
import type { PostVersion } from "../PostVersion.ts"
import type { PublishError } from "../PublishError.ts"

// The two faults the conformance suite stages at every network call of publishing, one call at a time:
//
// - `cut`: the network's call goes through and its answer arrives, then Herald stops before recording it.
//   The adapter's HTTP client dies after the answer (a defect, which no adapter code catches, as a killed
//   process runs none of its own code either). The suite then does what the engine does on its next start:
//   a cut `publish`, or a cut `poll` whose step may make the post (`makesPost`), is settled with `reconcile`
//   (given the step's handle; found: published; absent: sent again; no reconcile or it cannot tell: the
//   outcome is unknown); any other cut `poll` is asked again with `resumed: true` and the same handle.
// - `lose`: the network takes the call and acts on it, but the connection drops before its answer arrives
//   (a network blip, not a crash). The adapter's client fails as a dropped connection does and the adapter
//   goes on in the same process; the suite does what the engine does with the error the adapter makes of it.
//
// Either way the network must end up holding the post once, with its thread and first comment once each.
// The engine's rules the suite follows are those of packages/core/src/Publisher.ts: a passing fault (and a
// rate limit) sends the same step again as it is; `OutcomeUnknown` from a step that may make the post is
// settled with `reconcile`, from any other `poll` the same step is asked again with `resumed: true`, so it
// looks before it makes.

/** How the armed call is struck: Herald stops right after it, or its answer is lost on the way. */
export type Fault = "cut" | "lose"

/** The defect that stands for Herald stopping right after a network call. */
class CutOff extends Error {
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
  /** The call whose answer was lost (`lose`), once it has been. */
  lost: string | undefined
  private at: number | undefined
  private fault: Fault = "cut"
  private readonly networkRoot: string

  constructor(networkRoot: string) {
    this.networkRoot = networkRoot
  }

  /** Strikes the `at`-th network call from now (1-based) with `fault`. */
  arm(at: number, fault: Fault = "cut"): void {
    this.at = at
    this.fault = fault
    this.calls = 0
    this.lost = undefined
    this.log.length = 0
  }

  disarm(): void {
    this.at = undefined
  }

  /** The client the adapter is built with: the real one, struck at the armed call after the network answered. */
  wrap = <E, R>(
    client: HttpClient.HttpClient.With<E, R>
  ): HttpClient.HttpClient.With<E | HttpClientError.HttpClientError, R> =>
    HttpClient.transform(client, (response, request) =>
      Effect.flatMap(response, (answer) => {
        // Media downloads from Herald's own server are no network call.
        if (!request.url.startsWith(this.networkRoot)) return Effect.succeed(answer)
        const call = `${request.method} ${request.url.slice(this.networkRoot.length).split("?")[0]}`
        this.calls++
        this.log.push(call)
        if (this.calls !== this.at) return Effect.succeed(answer)
        this.at = undefined
        if (this.fault === "cut") return Effect.die(new CutOff(call))
        this.lost = call
        // The network acted and answered; the connection dropped before the answer reached Herald. The body is
        // read and thrown away so the connection is not left half-read.
        return Effect.andThen(
          Effect.ignore(answer.arrayBuffer),
          Effect.fail(
            new HttpClientError.HttpClientError({
              reason: new HttpClientError.TransportError({
                request,
                description: `the connection dropped before the answer to ${call} arrived`
              })
            })
          )
        )
      }))
}

/** Where a run was struck: which entry point was under way, and at which network call. */
interface Cut {
  readonly entry: "publish" | "poll"
  readonly call: string
}

type Outcome =
  | { readonly _tag: "Published"; readonly published: Adapter.Published }
  | { readonly _tag: "Unknown"; readonly message: string }

export interface Run {
  readonly outcome: Outcome
  /** Undefined when the run ended before the armed call: the post has no step that far. */
  readonly cut: Cut | undefined
  /** Every network call of the run, struck or not. */
  readonly calls: ReadonlyArray<string>
}

const cutOf = <A, E>(exit: Exit.Exit<A, E>): CutOff | undefined => {
  if (Exit.isSuccess(exit)) return undefined
  const defect = exit.cause.reasons.find(Cause.isDieReason)?.defect
  return defect instanceof CutOff ? defect : undefined
}

/** Passing faults in a row the engine sends a step again for (its `attempts`) before the target fails. */
const attempts = 5

/**
 * Publishes `input` as the engine does, with the `at`-th network call struck by `fault`: taken over as the
 * engine takes a crashed target over (`cut`), or carried on in the same process with the error the adapter
 * made of the lost answer (`lose`). Answers how the target ended.
 */
const runStruckAt = (
  adapter: Adapter.Adapter,
  cutter: Cutter,
  input: Adapter.PublishInput,
  at: number,
  fault: Fault = "cut"
): Effect.Effect<Run> =>
  Effect.gen(function*() {
    let cut: Cut | undefined
    let step: { readonly call: "publish" } | { readonly call: "poll"; readonly handle: string } = { call: "publish" }
    // As the engine: set for the polls after a cut one or one whose answer was lost, until a step succeeds.
    let resumed = false
    let failures = 0
    cutter.arm(at, fault)
    const end = (outcome: Outcome): Run => {
      cutter.disarm()
      return { outcome, cut, calls: [...cutter.log] }
    }
    const struck = fault === "cut" ? "the cut" : "the lost answer"
    /** Whether the step may make the post, so that the engine settles it with `reconcile`. */
    const makesPost = (at: typeof step) => at.call === "publish" || adapter.makesPost?.(at.handle) === true
    // After a lost step that may have made the post: what the engine asks the network.
    const settle = Effect.fnUntraced(function*(at: typeof step) {
      if (adapter.reconcile === undefined) {
        return { _tag: "Unknown", message: `${adapter.name} has no reconcile` } as const
      }
      const found = yield* Effect.result(adapter.reconcile(at.call === "poll" ? { ...input, handle: at.handle } : input))
      if (found._tag === "Failure") return { _tag: "Unknown", message: found.failure.message } as const
      return Option.match(found.success, {
        onNone: () => undefined,
        onSome: (published) => ({ _tag: "Published", published } as const)
      })
    })
    for (let tries = 0; tries < 100; tries++) {
      const exit: Exit.Exit<Adapter.PublishStep, PublishError> = yield* Effect.exit(
        step.call === "publish"
          ? adapter.publish(input)
          : adapter.poll === undefined
          ? Effect.die(new Error(`${adapter.name} answered Processing but has no poll hook`))
          : adapter.poll(resumed ? { ...input, resumed: true } : input, step.handle)
      )
      const stopped = cutOf(exit)
      if (stopped !== undefined) {
        cut = { entry: step.call, call: stopped.call }
        if (!makesPost(step)) {
          resumed = true
          continue
        }
        const settled = yield* settle(step)
        if (settled !== undefined) return end(settled)
        resumed = false
        continue
      }
      if (cutter.lost !== undefined && cut === undefined) cut = { entry: step.call, call: cutter.lost }
      if (Exit.isFailure(exit)) {
        const error = Cause.findErrorOption(exit.cause)
        if (Option.isNone(error)) return yield* Effect.die(Cause.squash(exit.cause))
        const reason = error.value.reason._tag
        if (reason === "Transient" || reason === "RateLimited") {
          // The engine sends the same step again, as it is, after a wait.
          failures++
          if (failures >= attempts) {
            return yield* Effect.die(new Error(`${step.call} still failing after ${struck}: ${error.value.message}`))
          }
          continue
        }
        if (reason !== "OutcomeUnknown") {
          return yield* Effect.die(new Error(`${step.call} failed after ${struck}: ${error.value.message}`))
        }
        if (makesPost(step)) {
          const settled = yield* settle(step)
          if (settled !== undefined) return end(settled)
          resumed = false
          continue
        }
        // A poll's answer lost: the engine asks the same step again as a resumed one, which looks first.
        failures++
        if (failures >= attempts) return end({ _tag: "Unknown", message: error.value.message })
        resumed = true
        continue
      }
      resumed = false
      failures = 0
      const answer: Adapter.PublishStep = exit.value
      if (answer._tag === "Published") return end({ _tag: "Published", published: answer.published })
      step = { call: "poll", handle: answer.handle }
      yield* Effect.sleep(Duration.millis(Math.min(answer.checkAfterMs, 10)))
    }
    return yield* Effect.die(new Error("still processing after 100 steps"))
  })

/** A form of post the fault cases publish: its parts (text, thread, first comment) must each be made once. */
export interface Form {
  readonly name: string
  readonly make: (text: string) => PostVersion
}

/** How many of the account's posts and comments on the simulator have exactly this text. */
const madeWithText = (context: Context, accountId: string, text: string) =>
  context.simulator.state.postsOf(accountId).filter((entry) => entry.text === text).length +
  context.simulator.state.commentsAfter(accountId, 0).filter((entry) => entry.text === text).length

/**
 * Strikes a publication's `at`-th network call with `fault` and carries it on as the engine would; checks
 * nothing was made twice and the outcome names the post the network has. Answers the run (nothing struck when
 * the post has fewer calls than `at`; `at` 0 strikes nothing, for a run through the network's own faults).
 */
export const checkStruckAt = (context: Context, account: Adapter.Account, form: Form, at: number, fault: Fault) =>
  Effect.gen(function*() {
    const text = at === 0 ? `${form.name} ${Date.now()}` : `${fault === "cut" ? "cut" : "lost"} ${form.name} at call ${at} ${Date.now()}`
    const version = form.make(text)
    const run = yield* runStruckAt(context.adapter, context.cutter, { account, post: version }, at, fault)
    const how = at === 0 ? "" : ` ${fault === "cut" ? "cut after" : "answer lost at"} call ${at}`
    const where = `${form.name} post${how} (${run.cut?.entry ?? "nothing struck"}: ${run.cut?.call ?? "-"}); calls: ${run.calls.join(", ")}`
    const parts = [version.text, ...version.thread, ...(version.firstComment === null ? [] : [version.firstComment])]
    for (const part of parts) {
      assert.isAtMost(madeWithText(context, account.networkAccountId, part), 1, `made twice: "${part}", ${where}`)
    }
    if (run.outcome._tag === "Unknown") {
      // Only where the network cannot be asked: a call struck inside `publish` of an adapter without `reconcile`.
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
