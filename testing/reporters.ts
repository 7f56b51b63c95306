import type { TestUserConfig } from "vitest/config"
import { type LeftOut, TestsNotRun } from "./TestsNotRun.ts"

/**
 * The reporters of a test run: the account of what did not run first (the tests it counts as failed, their
 * setup having failed, are then failed for the reporters after it too), vitest's default, and with
 * HERALD_TEST_REPORT set (CI does) vitest's JSON report in that file, for the closing line's counts.
 */
export const reporters = (leftOut: ReadonlyArray<LeftOut>): NonNullable<TestUserConfig["reporters"]> => {
  const report = process.env["HERALD_TEST_REPORT"]
  const notRun = new TestsNotRun({ leftOut })
  return report === undefined || report === "" ? [notRun, "default"] : [notRun, "default", ["json", { outputFile: report }]]
}
