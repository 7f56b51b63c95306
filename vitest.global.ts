import { tmpdir } from "node:os"
import { join } from "node:path"

// Once per test run, before any test. (What a run leaves out for want of PostgreSQL, Chromium or Go is
// printed once at its end, by testing/TestsNotRun.ts.)
export default function setup() {
  // Node's compile cache (the type-stripped source and V8's code for each module, kept on disk) for every
  // process the run starts: the test workers and, through the environment they pass on, each `herald`
  // process the CLI, console and multi-process tests spawn, which otherwise strips and compiles the whole
  // app again. Each entry is checked against its file's content, so a stale one is never used; set
  // NODE_DISABLE_COMPILE_CACHE=1 to do without. Vitest drops it itself when measuring V8 coverage.
  process.env["NODE_COMPILE_CACHE"] ??= join(tmpdir(), "herald-node-compile-cache")
}
