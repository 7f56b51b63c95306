import { defineProject } from "vitest/config"
import { hookTimeout, isolate, maxWorkers, testTimeout } from "../../vitest.shared.ts"

export default defineProject({
  test: {
    name: "adapter-x",
    include: ["test/**/*.test.ts"],
    maxWorkers,
    isolate,
    testTimeout,
    hookTimeout
  }
})
