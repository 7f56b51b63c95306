import { defineConfig } from "vitest/config"
import { postgresLeftOut } from "./testing/postgresMissing.ts"
import { reporters } from "./testing/reporters.ts"

// One project per package, and `testing` (the run's own machinery); each project's vitest.config.ts sets its
// name and timeouts.
export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*", "adapters/*", "testing"],
    // What the code under test logs (an e-mail not sent without SMTP, a refused inbox read, a late post) is
    // expected where a test passes; shown with a failing test, where it may explain the failure.
    // `--silent=false` shows everything.
    silent: "passed-only",
    globalSetup: ["./vitest.global.ts"],
    // Each reason tests were skipped, once, before the summary; a test whose setup failed counts as failed.
    reporters: reporters(postgresLeftOut)
  }
})
