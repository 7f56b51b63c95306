import { availableParallelism } from "node:os"

// Settings every project takes: each vitest.config.ts spreads `projectSettings` (at the end of this file).

/**
 * Test files run at once. Vitest's default is one fewer than the cores, which on a 2-core machine is one:
 * every file in turn. Most of a file's time here is spent waiting (on its `herald` processes, PostgreSQL,
 * a browser, a sped-up clock), and each file has its own databases, data folders and ports, so two files at
 * once are safe. Every project must give the same number: vitest refuses projects whose numbers differ,
 * and runs a project left at one after all the others. See docs/decisions/0036-test-files-in-parallel.md.
 */
export const maxWorkers = Math.max(2, availableParallelism() - 1)

/**
 * Whether each test file gets a fresh worker process. It does not: a worker runs file after file, so the app's
 * modules are imported and compiled once per worker rather than once per file (the server project: 89 files
 * each importing all of Herald). A file keeps what it changes to itself: it gives a layer its own environment
 * (a ConfigProvider) instead of writing process.env, which Effect reads once per process, and puts back timers it
 * fakes. See docs/decisions/0069-test-workers-reused.md.
 */
export const isolate = false

/**
 * What HERALD_TEST_TIMEOUT_SCALE multiplies every guard below by (1 by default), for a machine slower still
 * than they allow for.
 */
const scale = (() => {
  const set = Number(process.env["HERALD_TEST_TIMEOUT_SCALE"] ?? "1")
  return Number.isFinite(set) && set > 0 ? set : 1
})()

/**
 * The last guard against a hang, stated here once and taken by every project: how long one test, or one
 * setup (a `beforeAll`, an `@effect/vitest` layer), may run before it is called stuck. No verdict rests on
 * it: a test waits for what it expects (an event, an answer, a state it polls), never for a time. Sized for
 * a machine four times slower than the developers' (2 cores, the slowest test about a minute there alone).
 */
export const testTimeout = 240_000 * scale
export const hookTimeout = 240_000 * scale

/**
 * How long a test waits at most for something that must happen (a process's answer, a command's exit, a
 * page's element): a budget under the guard, so that the wait's own message says what did not come.
 */
export const patience = 180_000 * scale

/**
 * What every project's vitest.config.ts spreads into its `test` settings after its name: its files, and the
 * settings above, which vitest wants given per project (a project does not inherit the root config's).
 */
export const projectSettings = {
  include: ["test/**/*.test.ts"],
  maxWorkers,
  isolate,
  testTimeout,
  hookTimeout
}
