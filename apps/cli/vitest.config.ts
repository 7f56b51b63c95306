import { defineProject } from "vitest/config"
import { projectSettings } from "../../vitest.shared.ts"

export default defineProject({
  test: {
    name: "cli",
    ...projectSettings
  }
})
