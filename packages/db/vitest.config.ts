import { defineProject } from "vitest/config"
import { hookTimeout, isolate, maxWorkers, testTimeout } from "../../vitest.shared.ts"

export default defineProject({
  test: {
    name: "db",
    include: ["test/**/*.test.ts"],
    maxWorkers,
    isolate,
    // A PGlite starts in about 0.3 s from the template, 3 s without it (first run),
    // and each holds a few hundred MB: allow for a slow machine running files in parallel.
    testTimeout,
    hookTimeout
  }
})
