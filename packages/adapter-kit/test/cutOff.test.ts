import { assert } from "@effect/vitest"
import { Cause, Effect, Exit, Option } from "effect"
import * as CutOff from "../src/internal/cutOff.ts"
import { PublishError } from "../src/index.ts"
import { AdapterSuite, ExampleNetwork } from "../src/testing.ts"

// The suite's cut-off case must catch an adapter that sends again without looking: the example network,
// its `reconcile` made blind (it never finds the post), is cut off right after its one publishing call.
const blind = (config: Parameters<typeof ExampleNetwork.make>[0]) =>
  Effect.map(ExampleNetwork.make(config), (adapter) => ({ ...adapter, reconcile: () => Effect.succeed(Option.none()) }))

const failureOf = <A, E>(exit: Exit.Exit<A, E>) =>
  Exit.isFailure(exit) ? String(Cause.squash(exit.cause)) : "no failure"

AdapterSuite.withHarness({ makeAdapter: blind, makeSimulator: ExampleNetwork.simulator })("the cut-off case", (it) => {
  const plain: CutOff.Form = { name: "plain", make: (text) => AdapterSuite.post({ text }) }

  it.effect("fails an adapter whose reconcile does not find the post a cut call made, naming the call", () =>
    Effect.gen(function*() {
      const context = yield* AdapterSuite.Harness
      const { account } = yield* AdapterSuite.connect(context)
      const exit = yield* Effect.exit(CutOff.checkStruckAt(context, account, plain, 1, "cut"))
      assert.match(failureOf(exit), /made twice: "cut plain at call 1 .*", plain post cut after call 1 \(publish: POST \/posts\)/)
    }))

  it.effect("passes it past its last call (nothing cut), and then the post is there once", () =>
    Effect.gen(function*() {
      const context = yield* AdapterSuite.Harness
      const { account } = yield* AdapterSuite.connect(context)
      const run = yield* CutOff.checkStruckAt(context, account, plain, 2, "cut")
      assert.isUndefined(run.cut)
      assert.deepStrictEqual(run.calls, ["POST /posts"])
      assert.strictEqual(run.outcome._tag, "Published")
    }))
})

// The lost-answer case must catch an adapter that takes a lost answer for a passing fault: the example
// network with the outcome of its publishing call's lost answer made "try again" (as it was before it marked
// that call as one that makes a post).
const careless = (config: Parameters<typeof ExampleNetwork.make>[0]) =>
  Effect.map(ExampleNetwork.make(config), (adapter) => ({
    ...adapter,
    publish: (input: Parameters<typeof adapter.publish>[0]) =>
      Effect.mapError(adapter.publish(input), (error) =>
        error.reason._tag === "OutcomeUnknown" ? PublishError.transient(error.network, error.reason.message) : error)
  }))

AdapterSuite.withHarness({ makeAdapter: careless, makeSimulator: ExampleNetwork.simulator })("the lost-answer case", (it) => {
  const plain: CutOff.Form = { name: "plain", make: (text) => AdapterSuite.post({ text }) }

  it.effect("fails an adapter that sends again after its publishing call's answer was lost, naming the call", () =>
    Effect.gen(function*() {
      const context = yield* AdapterSuite.Harness
      const { account } = yield* AdapterSuite.connect(context)
      const exit = yield* Effect.exit(CutOff.checkStruckAt(context, account, plain, 1, "lose"))
      assert.match(
        failureOf(exit),
        /made twice: "lost plain at call 1 .*", plain post answer lost at call 1 \(publish: POST \/posts\); calls: POST \/posts, POST \/posts/
      )
    }))
})

AdapterSuite.withHarness({ makeAdapter: ExampleNetwork.make, makeSimulator: ExampleNetwork.simulator })("the lost-answer case", (it) => {
  const plain: CutOff.Form = { name: "plain", make: (text) => AdapterSuite.post({ text }) }

  it.effect("passes an adapter that looks before sending again: the post is there once, with its id and link", () =>
    Effect.gen(function*() {
      const context = yield* AdapterSuite.Harness
      const { account } = yield* AdapterSuite.connect(context)
      const run = yield* CutOff.checkStruckAt(context, account, plain, 1, "lose")
      assert.deepStrictEqual(run.cut, { entry: "publish", call: "POST /posts" })
      // The lost call, then reconcile's look, which finds it: nothing sent twice.
      assert.deepStrictEqual(run.calls, ["POST /posts", "GET /posts"])
      assert.strictEqual(run.outcome._tag, "Published")
    }))
})
