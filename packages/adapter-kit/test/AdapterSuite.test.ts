import { AdapterSuite, ExampleNetwork } from "../src/testing.ts"

// The suite itself is tested by running it against the kit's minimal example network.
AdapterSuite.suite("example", {
  makeAdapter: ExampleNetwork.make,
  makeSimulator: ExampleNetwork.simulator
})
