import { assert } from "@effect/vitest"
import { Cause, Effect, Exit, Option } from "effect"
import * as CutOff from "../src/internal/cutOff.ts"
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
      const exit = yield* Effect.exit(CutOff.checkCutOffAt(context, account, plain, 1))
      assert.match(failureOf(exit), /made twice: "cut plain after call 1 .*", plain post cut after call 1 \(publish: POST \/posts\)/)
    }))

  it.effect("passes it past its last call (nothing cut), and then the post is there once", () =>
    Effect.gen(function*() {
      const context = yield* AdapterSuite.Harness
      const { account } = yield* AdapterSuite.connect(context)
      const run = yield* CutOff.checkCutOffAt(context, account, plain, 2)
      assert.isUndefined(run.cut)
      assert.deepStrictEqual(run.calls, ["POST /posts"])
      assert.strictEqual(run.outcome._tag, "Published")
    }))
})
