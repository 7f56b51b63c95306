import { spawnSync } from "node:child_process"

// Once per test run, before any test: one line when tests are left out for want of a PostgreSQL server, so
// that a passing run says what it did not cover. The storage tests run on the embedded database either way.
export default function setup() {
  const url = process.env["HERALD_TEST_DATABASE_URL"]
  if (url === undefined || url === "") {
    console.log(
      "PostgreSQL tests skipped: HERALD_TEST_DATABASE_URL is not set (set it to a server's admin URL, e.g. " +
        "postgres://postgres@127.0.0.1:5432/test, to run the storage and multi-process tests on PostgreSQL too)"
    )
  } else if (spawnSync("psql", ["--version"]).status !== 0) {
    console.log("Multi-process PostgreSQL tests skipped: they make their databases with psql, which is not on PATH")
  }
}
