import type { TestOptions } from "vitest"

declare module "vitest" {
  interface TaskMeta {
    /** Why the test, or every test of the suite, is skipped; the run's closing report prints it (TestsNotRun.ts). */
    skipReason?: string
  }
}

/**
 * The options of a `describe`, `it` or `it.effect` that skip it where there is a reason to (what this machine
 * lacks, as a sentence), carrying the reason to the run's report, which prints each reason once:
 * `describe("the inbox", skipIf(missing), () => ...)`, `it.effect(name, test, skipIf(missing))`.
 */
export const skipIf = (reason: string | undefined): TestOptions =>
  reason === undefined ? {} : { skip: true, meta: { skipReason: reason } }
