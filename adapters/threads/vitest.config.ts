import { defineProject } from "vitest/config"
import { hookTimeout, maxWorkers, testTimeout } from "../../vitest.shared.ts"

export default defineProject({
  test: {
    name: "adapter-threads",
    include: ["test/**/*.test.ts"],
    maxWorkers,
    testTimeout,
    hookTimeout
  }
})
