import { defineProject } from "vitest/config"
import { maxWorkers } from "../../vitest.shared.ts"

export default defineProject({
  test: {
    name: "cli",
    include: ["test/**/*.test.ts"],
    maxWorkers,
    // Each test runs several `herald` processes (a Node start and the whole app each); on a busy machine a
    // minute was not always enough.
    testTimeout: 180_000,
    hookTimeout: 120_000
  }
})
