import { spawnSync } from "node:child_process"
import { tmpdir } from "node:os"
import { join } from "node:path"

// Once per test run, before any test: one line when tests are left out for want of a PostgreSQL server, so
// that a passing run says what it did not cover. The storage tests run on the embedded database either way.
export default function setup() {
  // Node's compile cache (the type-stripped source and V8's code for each module, kept on disk) for every
  // process the run starts: the test workers and, through the environment they pass on, each `herald`
  // process the CLI, console and multi-process tests spawn, which otherwise strips and compiles the whole
  // app again. Each entry is checked against its file's content, so a stale one is never used; set
  // NODE_DISABLE_COMPILE_CACHE=1 to do without. Vitest drops it itself when measuring V8 coverage.
  process.env["NODE_COMPILE_CACHE"] ??= join(tmpdir(), "herald-node-compile-cache")
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
