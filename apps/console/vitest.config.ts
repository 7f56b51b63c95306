import { defineProject } from "vitest/config"

// The console in a real browser against a real Herald. The global setup builds the console when dist is
// missing or older than its sources, so a test never runs against a stale bundle.
export default defineProject({
  test: {
    name: "console",
    include: ["test/**/*.test.ts"],
    globalSetup: ["./test/build.ts"],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    // One browser and one Herald per file; files in parallel would compete for the two shared cores.
    fileParallelism: false
  }
})
