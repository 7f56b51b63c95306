// The run's account of the tests that did not run, and why, printed once before the summary: each reason once
// (not once a test), with the tests it kept from running, counted by file. Vitest's own summary says only
// "(17 tests | 1 skipped)".
//
//   - A test skipped for a reason: `skipIf(reason)` (testing/skipIf.ts) on its suite or itself, or
//     `context.skip(note)` inside it (the adapter kit's unclaimed capabilities).
//   - A test that did not run because its setup failed (a `beforeAll`, an @effect/vitest `layer(...)`, failing
//     or timing out): vitest reports it skipped, so a suite that never ran would read as one that passed in
//     part. It is counted as failed instead, here and in every reporter after this one (the default summary,
//     the JSON report), with an error that names the setup's.
//   - A skip that gives no reason (`it.skip`, a `-t` filter, `.only` elsewhere) is listed too, to be given one.
import { relative } from "node:path"
import type { Reporter, TestCase, TestModule, TestSuite, Vitest } from "vitest/node"
import type { TestError } from "vitest"

/** Tests left out without even a skipped test for them (the storage tests' PostgreSQL variants), by reason. */
export interface LeftOut {
  readonly reason: string
  /** What was left out, as the closing words of the reason's line: "the storage tests ran on PGlite only". */
  readonly what: string
}

interface Group {
  count: number
  readonly files: Map<string, number>
}

// The task behind a reported test: vitest marks it internal, but it is the state every reporter reads, so
// a result changed here is the result the default summary and the JSON report count.
interface WithTask {
  readonly task: { mode: string; result?: { state: string; errors?: Array<TestError> } }
}

/** The suite or module above a test whose own setup failed, with its error; undefined when none did. */
const failedSetupOf = (test: TestCase): { readonly where: TestSuite | TestModule; readonly error: TestError } | undefined => {
  for (let where: TestSuite | TestModule = test.parent; ; where = where.parent) {
    const [error] = where.errors()
    if (error !== undefined) return { where, error }
    if (where.type === "module") return undefined
  }
}

/** A test that was to run, was never started, and sits under a setup that failed. */
const setupFailure = (test: TestCase) => {
  const result = test.result()
  if (result.state !== "skipped" || result.note !== undefined || test.options.mode !== "run") return undefined
  return failedSetupOf(test)
}

const firstLine = (error: TestError) => `${error.name ?? "Error"}: ${(error.message ?? "").split("\n")[0]}`

const setupName = (where: TestSuite | TestModule) => (where.type === "module" ? "the file's setup" : `the setup of "${where.fullName}"`)

/** Marks the tests that did not run because their setup failed as failed, once each. */
const failWhereSetupFailed = (module: TestModule) => {
  for (const test of module.children.allTests()) {
    const failed = setupFailure(test)
    if (failed === undefined) continue
    const message = `did not run: ${setupName(failed.where)} failed (${firstLine(failed.error)})`
    // One error for every test under the same setup (the same stack): the default reporter prints it once,
    // under the names of all of them.
    const error: TestError = { name: "SetupFailed", message, stack: `SetupFailed: ${message}` }
    const task = (test as unknown as WithTask).task
    // Vitest took the skip for a declared one (`mode`), which its summary counts as skipped.
    task.mode = "run"
    task.result = { ...task.result, state: "fail", errors: [error] }
  }
}

const tests = (count: number) => `${count} ${count === 1 ? "test" : "tests"}`

export class TestsNotRun implements Reporter {
  readonly #leftOut: ReadonlyArray<LeftOut>
  #vitest: Vitest | undefined

  constructor(options: { readonly leftOut?: ReadonlyArray<LeftOut> } = {}) {
    this.#leftOut = options.leftOut ?? []
  }

  onInit(vitest: Vitest) {
    this.#vitest = vitest
  }

  // Before the other reporters (this one comes first in the list, and does its work at once): the default
  // reporter's line for the file then counts them failed too.
  onTestModuleEnd(module: TestModule) {
    failWhereSetupFailed(module)
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>) {
    const vitest = this.#vitest
    if (vitest === undefined) return
    const skipped = new Map<string, Group>()
    const setups = new Map<string, Group>()
    const unloaded: Array<string> = []
    const file = (module: TestModule) => relative(vitest.config.root, module.moduleId)
    const add = (groups: Map<string, Group>, reason: string, module: TestModule) => {
      const group = groups.get(reason) ?? { count: 0, files: new Map() }
      group.count++
      group.files.set(file(module), (group.files.get(file(module)) ?? 0) + 1)
      groups.set(reason, group)
    }
    for (const module of modules) {
      // Once more for every file, in case vitest did not report one's end (a worker that exited early).
      failWhereSetupFailed(module)
      const [loadError] = module.errors()
      if (loadError !== undefined && module.children.size === 0) unloaded.push(`${file(module)} (${firstLine(loadError)})`)
      for (const test of module.children.allTests()) {
        const result = test.result()
        if (result.state === "failed") {
          const failed = result.errors[0]?.name === "SetupFailed" ? failedSetupOf(test) : undefined
          if (failed !== undefined) add(setups, `${file(module)}: ${setupName(failed.where)} failed (${firstLine(failed.error)})`, module)
        }
        if (result.state !== "skipped") continue
        const reason = result.note?.replace(/^skipped: /, "") ?? test.meta().skipReason ??
          (test.options.mode === "todo" ? "todo" : "no reason given (an `it.skip`, a `-t` filter, or `.only` elsewhere)")
        add(skipped, reason, module)
      }
    }
    const leftOut = this.#leftOut.filter((each) => !skipped.has(each.reason))
    if (skipped.size + setups.size + unloaded.length + leftOut.length === 0) return
    const where = (group: Group) => [...group.files].sort().map(([name, count]) => `${name} (${count})`).join(", ")
    const lines = ["", "Not run, and why (each reason once):"]
    // In the order of the reasons, not of the files' ends, which two workers make differ from run to run.
    for (const [reason, group] of [...skipped].sort(([a], [b]) => a.localeCompare(b))) {
      const also = this.#leftOut.find((each) => each.reason === reason)
      lines.push(`  ${reason}: ${tests(group.count)} skipped, in ${where(group)}${also === undefined ? "" : `; ${also.what}`}`)
    }
    for (const each of leftOut) lines.push(`  ${each.reason}: ${each.what}`)
    for (const [reason, group] of [...setups].sort(([a], [b]) => a.localeCompare(b))) lines.push(`  ${reason}: ${tests(group.count)} did not run, counted as failed`)
    for (const each of unloaded) lines.push(`  no test ran, the file failed to load: ${each}`)
    vitest.logger.log(lines.join("\n"))
  }
}
