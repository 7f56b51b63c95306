import { availableParallelism } from "node:os"

// Settings every project's vitest.config.ts takes (a project does not inherit the root config's).

/**
 * Test files run at once. Vitest's default is one fewer than the cores, which on a 2-core machine is one:
 * every file in turn. Most of a file's time here is spent waiting (on its `herald` processes, PostgreSQL,
 * a browser, a sped-up clock), and each file has its own databases, data folders and ports, so two files at
 * once are safe. Every project must give the same number: vitest refuses projects whose numbers differ,
 * and runs a project left at one after all the others. See docs/decisions/0036-test-files-in-parallel.md.
 */
export const maxWorkers = Math.max(2, availableParallelism() - 1)
