// The one plain line a test run ends with (.ci/run, bench/suite), from vitest's JSON report
// (HERALD_TEST_REPORT): `1591 passed, 2 failed (1 did not run: its setup failed), 14 skipped`.
//
//   node testing/closingLine.ts <report.json>
import { readFileSync } from "node:fs"
import { relative, resolve } from "node:path"

interface Report {
  readonly numPassedTests: number
  readonly numFailedTests: number
  readonly numPendingTests: number
  readonly numTodoTests: number
  readonly testResults: ReadonlyArray<{
    readonly name: string
    readonly assertionResults: ReadonlyArray<{ readonly fullName: string; readonly status: string; readonly failureMessages: ReadonlyArray<string> }>
  }>
}

export interface Counts {
  readonly passed: number
  readonly failed: number
  /** Of the failed, those that never ran because their setup failed (testing/TestsNotRun.ts counts them failed). */
  readonly didNotRun: number
  readonly skipped: number
  /** Each failed test: its full name and its file, relative to the repository. */
  readonly failures: ReadonlyArray<{ readonly name: string; readonly file: string }>
}

const root = resolve(import.meta.dirname, "..")

export const countsOf = (report: Report): Counts => {
  const failed = report.testResults.flatMap((file) =>
    file.assertionResults.filter((test) => test.status === "failed").map((test) => ({ test, file: relative(root, file.name) })))
  return {
    passed: report.numPassedTests,
    failed: report.numFailedTests,
    didNotRun: failed.filter(({ test }) => test.failureMessages[0]?.startsWith("SetupFailed: ") === true).length,
    skipped: report.numPendingTests + report.numTodoTests,
    failures: failed.map(({ file, test }) => ({ name: test.fullName, file }))
  }
}

export const readCounts = (path: string): Counts => countsOf(JSON.parse(readFileSync(path, "utf8")) as Report)

export const closingLine = (counts: Counts) =>
  `${counts.passed} passed, ${counts.failed} failed` +
  (counts.didNotRun === 0 ? "" : ` (${counts.didNotRun} did not run: ${counts.didNotRun === 1 ? "its" : "their"} setup failed)`) +
  `, ${counts.skipped} skipped`

if (import.meta.main) console.log(closingLine(readCounts(process.argv[2]!)))
