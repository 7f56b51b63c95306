import { defineProject } from "vitest/config"
import { hookTimeout, maxWorkers, testTimeout } from "../../vitest.shared.ts"

export default defineProject({
  test: {
    name: "core",
    include: ["test/**/*.test.ts"],
    maxWorkers,
    testTimeout,
    hookTimeout
  }
})
