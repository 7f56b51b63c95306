import { defineProject } from "vitest/config"
import { maxWorkers } from "../../vitest.shared.ts"

export default defineProject({
  test: {
    name: "adapter-kit",
    include: ["test/**/*.test.ts"],
    maxWorkers,
    testTimeout: 60_000,
    hookTimeout: 120_000
  }
})
