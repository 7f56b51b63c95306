import { assert, describe, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { patience } from "../../vitest.shared.ts"
import { closingLine, readCounts } from "../closingLine.ts"

// The test run as a contributor reads it when tests do not run: vitest on the fixture files (a suite skipped
// for want of a browser, a test for want of Go, an adapter's unclaimed capability, a setup that throws, a
// layer that never finishes) with the repository's reporters.
const root = resolve(import.meta.dirname, "../..")
const vitest = resolve(root, "node_modules/vitest/vitest.mjs")

const fixtureRun = () =>
  new Promise<{ code: number; output: string; report: string }>((done) => {
    const report = join(mkdtempSync(join(tmpdir(), "herald-fixture-run-")), "report.json")
    const env: Record<string, string | undefined> = { ...process.env, HERALD_TEST_REPORT: report, NO_COLOR: "1" }
    // This run's own workers' markers would make the nested vitest think it runs inside a test.
    for (const name of Object.keys(env)) if (name.startsWith("VITEST")) delete env[name]
    const config = resolve(import.meta.dirname, "fixtures/vitest.config.ts")
    execFile(process.execPath, [vitest, "run", "--config", config], { cwd: root, env, timeout: patience }, (error, stdout, stderr) =>
      done({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, output: stdout + stderr, report }))
  })

const occurrences = (output: string, text: string) => output.split(text).length - 1

describe("the tests that did not run", () => {
  it("are counted failed where their setup failed, and each reason to skip is printed once", async () => {
    const { code, output, report } = await fixtureRun()
    try {
      assert.strictEqual(code, 1, output)
      // Vitest alone reports the tests under a failed setup as skipped: `Tests  2 passed | 7 skipped (9)`.
      assert.include(output, "Tests  3 failed | 2 passed | 4 skipped (9)", output)
      const counts = readCounts(report)
      assert.deepStrictEqual(
        { passed: counts.passed, failed: counts.failed, didNotRun: counts.didNotRun, skipped: counts.skipped },
        { passed: 2, failed: 3, didNotRun: 3, skipped: 4 }
      )
      assert.deepStrictEqual(counts.failures.map((failure) => failure.name).sort(), [
        "a layer that never finishes publishes",
        "a setup that throws reads a post",
        "a setup that throws writes a post"
      ])
      assert.strictEqual(closingLine(counts), "2 passed, 3 failed (3 did not run: their setup failed), 4 skipped")
      const reasons = [
        "no Chromium here: 2 tests skipped, in skips.fixture.ts (2)",
        "go is not on PATH: 1 test skipped, in skips.fixture.ts (1)",
        "example does not claim videos: 1 test skipped, in skips.fixture.ts (1)",
        "no PostgreSQL here: the storage tests ran on PGlite only",
        `setup.fixture.ts: the setup of "a setup that throws" failed (Error: the database did not answer): 2 tests did not run, counted as failed`,
        `setup.fixture.ts: the setup of "a layer that never finishes" failed (HookTimeoutError: Hook timed out in 500ms.): 1 test did not run, counted as failed`
      ]
      for (const reason of reasons) assert.strictEqual(occurrences(output, reason), 1, `${reason}\n\n${output}`)
      assert.notInclude(output, "no reason given", output)
    } finally {
      rmSync(resolve(report, ".."), { recursive: true, force: true })
    }
  })
})
