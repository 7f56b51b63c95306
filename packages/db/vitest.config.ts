import { defineProject } from "vitest/config"
import { projectSettings } from "../../vitest.shared.ts"

export default defineProject({
  test: {
    name: "db",
    // A test database is an emptied one this worker kept, else a load of the migrated template (2 to 3 s),
    // else a new migrated one (first run); see src/testing.ts and docs/decisions/0070-test-databases-reused.md.
    ...projectSettings
  }
})
