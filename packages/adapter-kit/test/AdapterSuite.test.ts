import { assert } from "@effect/vitest"
import { Effect } from "effect"
import { AdapterSuite, ExampleNetwork } from "../src/testing.ts"

// The suite itself is tested by running it against the kit's minimal example network.
// Its one option, and where its simulator keeps it.
const optionSamples: ReadonlyArray<AdapterSuite.OptionSample> = [{
  values: { visibility: "followers" },
  expect: (stored) => assert.strictEqual(stored.details["visibility"], "followers")
}]

AdapterSuite.suite("example", {
  makeAdapter: ExampleNetwork.make,
  makeSimulator: ExampleNetwork.simulator,
  optionSamples
})

// The same network claiming only text (it never claims first comments): the checks of what it does not claim are reported as skipped, with
// the reason, and not as passed. The last check reads the report of the ones before it.
const unclaimed = ["photos", "videos", "refresh", "reconcile", "firstComment"] as const

/** The note a skip gave, which vitest keeps on the result (its reporters show it) but does not type. */
const noteOf = (result: object | undefined) => result !== undefined && "note" in result ? result.note : undefined

AdapterSuite.suite("example claiming text only", {
  makeAdapter: (config) =>
    Effect.map(ExampleNetwork.make(config), (adapter) => ({
      ...adapter,
      capabilities: { ...adapter.capabilities, photos: false, videos: false, refresh: false, reconcile: false }
    })),
  makeSimulator: ExampleNetwork.simulator,
  optionSamples,
  extra: (it) => {
    it.effect("reports the checks of what the network does not claim as skipped, saying why", (test) =>
      Effect.sync(() => {
        const others = test.task.suite!.tasks.filter((task) => task.id !== test.task.id)
        const skipped = others.filter((task) => task.result?.state === "skip")
        assert.deepStrictEqual(
          skipped.map((task) => noteOf(task.result)).sort(),
          unclaimed.map((capability) => `skipped: example does not claim ${capability}`).sort()
        )
        assert.deepStrictEqual(
          skipped.map((task) => task.name).sort(),
          [
            "a first comment that fails in passing is made on the next try, once, and the post only once",
            "publishes a video",
            "publishes photos",
            "reconciles a post whose answer was lost, and finds nothing for one never made",
            "refreshes an expired token and publishes again"
          ]
        )
        // Every other check ran and passed.
        assert.isTrue(others.filter((task) => task.result?.state !== "skip").every((task) => task.result?.state === "pass"))
      }))
  }
})
