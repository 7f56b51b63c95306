import { defineConfig } from "vitest/config"

// One project per package; each package's own vitest.config.ts sets its name and timeouts. With
// HERALD_TEST_REPORT set (CI does), results are also written there as JSON for the closing summary line.
const report = process.env["HERALD_TEST_REPORT"]

export default defineConfig({
  test: {
    projects: ["packages/*", "apps/*", "adapters/*"],
    // What the code under test logs (an e-mail not sent without SMTP, a refused inbox read, a late post) is
    // expected where a test passes; shown with a failing test, where it may explain the failure.
    // `--silent=false` shows everything.
    silent: "passed-only",
    globalSetup: ["./vitest.global.ts"],
    reporters: report === undefined || report === "" ? ["default"] : ["default", ["json", { outputFile: report }]]
  }
})
