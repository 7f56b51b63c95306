import { assert, describe, it } from "@effect/vitest"
import { execFile } from "node:child_process"
import { resolve } from "node:path"
import { patience } from "../../../vitest.shared.ts"

// The repository's own test run as a contributor reads it: a passing file that logs warnings by design (the
// team's invitations, without SMTP, log the e-mail they would send) prints none of them, and a run without
// PostgreSQL says once that it skipped those tests, and why.
const root = resolve(import.meta.dirname, "../../..")
const vitest = resolve(root, "node_modules/vitest/vitest.mjs")

const testRun = (files: ReadonlyArray<string>) =>
  new Promise<{ code: number; output: string }>((done) => {
    const env: Record<string, string | undefined> = { ...process.env, HERALD_TEST_DATABASE_URL: "", HERALD_TEST_REPORT: "", NO_COLOR: "1" }
    // This run's own workers' markers would make the nested vitest think it runs inside a test.
    for (const name of Object.keys(env)) if (name.startsWith("VITEST")) delete env[name]
    execFile(process.execPath, [vitest, "run", ...files], { cwd: root, env, timeout: patience }, (error, stdout, stderr) =>
      done({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, output: stdout + stderr }))
  })

describe("the test run", () => {
  it("prints no log lines of passing tests and says once that the PostgreSQL tests are skipped", async () => {
    const { code, output } = await testRun(["apps/server/test/Team.test.ts"])
    assert.strictEqual(code, 0, output)
    assert.include(output, "Tests  4 passed")
    assert.notMatch(output, /\b(WARN|ERROR)\b/)
    assert.strictEqual(output.split("HERALD_TEST_DATABASE_URL is not set").length - 1, 1, output)
    assert.include(output, "the storage tests ran on the embedded database (PGlite) only", output)
  })
})
