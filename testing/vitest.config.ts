import { defineProject } from "vitest/config"
import { projectSettings } from "../vitest.shared.ts"

// The test run's own machinery (the closing report of what did not run), checked by running vitest on the
// files in test/fixtures, which no project includes.
export default defineProject({
  test: {
    name: "testing",
    ...projectSettings
  }
})
