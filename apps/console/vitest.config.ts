import { defineProject } from "vitest/config"
import { projectSettings } from "../../vitest.shared.ts"

// The console in a real browser against a real Herald. The global setup builds the console when dist is
// missing or older than its sources, so a test never runs against a stale bundle, and starts the one
// Chromium every file's contexts open in (test/sharedBrowser.ts).
export default defineProject({
  test: {
    name: "console",
    globalSetup: ["./test/build.ts", "./test/sharedBrowser.ts"],
    // Files run beside the other projects' files, `maxWorkers` at once (docs/decisions/0036-test-files-in-parallel.md).
    ...projectSettings
  }
})
