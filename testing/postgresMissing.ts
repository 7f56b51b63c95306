import { spawnSync } from "node:child_process"
import type { LeftOut } from "./TestsNotRun.ts"

const url = process.env["HERALD_TEST_DATABASE_URL"]
const unnamed = url === undefined || url === ""

/**
 * Why the tests that need a PostgreSQL server of their own cannot run here, or undefined: none is named, or
 * psql (PostgreSQL's client, with which the multi-process tests make and drop their databases) is missing.
 * Read when test files are collected, and by the run's closing report, which prints it once.
 */
export const postgresMissing: string | undefined = unnamed
  ? "HERALD_TEST_DATABASE_URL is not set (set it to a PostgreSQL server's admin URL, e.g. " +
    "postgres://postgres@127.0.0.1:5432/test, to run the storage and multi-process tests on PostgreSQL too)"
  : spawnSync("psql", ["--version"]).status === 0
  ? undefined
  : "psql is not on PATH (the multi-process PostgreSQL tests make their databases with it)"

/**
 * Without a server named, the storage tests' PostgreSQL variants are not even made (`backends()` in
 * packages/db/src/testing.ts), so no skipped test stands for them: the report says so under the same reason.
 */
export const postgresLeftOut: ReadonlyArray<LeftOut> =
  unnamed && postgresMissing !== undefined
    ? [{ reason: postgresMissing, what: "the storage tests ran on the embedded database (PGlite) only" }]
    : []
