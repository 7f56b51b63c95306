// bench/trial: the five-bug trial (issue 31, point 9). A throwaway adapter, the kit's example network copied
// as a stranger would start one, gets one typical bug at a time, and the kit's conformance suite runs against
// it and its simulator, alone. The trial prints, for each bug, whether the suite caught it and which checks
// failed; the adapter without a bug must pass every check, or the trial means nothing.
//
//   pnpm bench:trial
//
// The goal: 5 of 5 caught. Before issue 31 the suite caught 2 of 5 (it never answered rate-limited, never
// compared a limit with the simulator's, and never sent options).
import { execFileSync } from "node:child_process"
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"

const root = resolve(import.meta.dirname, "../..")
const kit = join(root, "packages/adapter-kit")
const work = join(kit, ".trial")
const report = join(work, "report.json")
/** The example network's files below `src/example/`, copied to `.trial/example/` as a stranger copies them. */
const files = ["ExampleLimits.ts", "ExampleOptions.ts", "ExampleAdapter.ts", "ExampleSimulator.ts", "internal/errors.ts"] as const
type File = typeof files[number]
const original = Object.fromEntries(
  files.map((file) => [file, readFileSync(join(kit, "src/example", file), "utf8")])
) as Record<File, string>

interface Bug {
  readonly name: string
  /** The file of the example the bug is put in. */
  readonly file: File
  /** The exact text of the adapter's code the bug replaces (it must occur once), and what it puts there. */
  readonly replace: string
  readonly by: string
}

const bugs: ReadonlyArray<Bug> = [
  {
    name: "a 429 read as a refusal (not retryable)",
    file: "internal/errors.ts",
    replace: "if (refusal.status === 429) return PublishError.rateLimited(network, message, refusal.retryAfterMs ?? 1000)",
    by: "if (refusal.status === 429) return PublishError.rejected(network, message)"
  },
  {
    name: "a text limit below the network's (80 declared, 100 taken)",
    file: "ExampleLimits.ts",
    replace: `text: { max: 100, counter: "characters" }`,
    by: `text: { max: 80, counter: "characters" }`
  },
  {
    name: "an option never sent (visibility)",
    file: "ExampleAdapter.ts",
    replace: `visibility: post.settings["visibility"] ?? "public"`,
    by: `visibility: "public"`
  },
  {
    name: "reconcile answers the account's newest post, whatever its text",
    file: "ExampleAdapter.ts",
    replace: "Option.fromNullishOr(answer.data.find((entry) => entry.text === post.text))",
    by: "Option.fromNullishOr(answer.data.at(-1))"
  },
  {
    name: "an expired token read as a refusal (never refreshed)",
    file: "internal/errors.ts",
    replace: `  if (code === "token_expired") return PublishError.authExpired(network, message)\n`,
    by: ""
  }
]

const testFile = `import { assert } from "@effect/vitest"
import { AdapterSuite } from "../src/testing.ts"
import { make } from "./example/ExampleAdapter.ts"
import { simulator } from "./example/ExampleSimulator.ts"

AdapterSuite.suite("throwaway", {
  makeAdapter: make,
  makeSimulator: simulator,
  optionSamples: [{
    values: { visibility: "followers" },
    expect: (stored) => assert.strictEqual(stored.details["visibility"], "followers")
  }]
})
`

interface Report {
  readonly testResults: ReadonlyArray<{
    readonly assertionResults: ReadonlyArray<{ readonly title: string; readonly status: string }>
  }>
}

/**
 * Runs the suite on the adapter's files `sources`: the checks that failed, and how many ran. The copies import
 * the kit from `../index.ts` as the example does; `.trial/index.ts` is the kit's.
 */
const runSuite = (sources: Record<File, string>) => {
  rmSync(work, { recursive: true, force: true })
  mkdirSync(join(work, "example/internal"), { recursive: true })
  for (const file of files) writeFileSync(join(work, "example", file), sources[file])
  writeFileSync(join(work, "index.ts"), `export * from "../src/index.ts"\n`)
  writeFileSync(join(work, "trial.test.ts"), testFile)
  try {
    execFileSync("npx", ["vitest", "run", "--config", join(import.meta.dirname, "vitest.config.ts"), "--outputFile", report], {
      cwd: root,
      stdio: "ignore"
    })
  } catch {
    // A failing check makes vitest exit 1: the report says which.
  }
  const results = (JSON.parse(readFileSync(report, "utf8")) as Report).testResults.flatMap((file) => file.assertionResults)
  return { failed: results.filter((result) => result.status === "failed").map((result) => result.title), ran: results.length }
}

try {
  const started = Date.now()
  const clean = runSuite(original)
  console.log(`without a bug: ${clean.ran} checks, ${clean.failed.length} failed${clean.failed.map((title) => `\n  ${title}`).join("")}`)
  if (clean.failed.length > 0 || clean.ran === 0) throw new Error("the adapter without a bug must pass every check")
  let caught = 0
  for (const bug of bugs) {
    if (original[bug.file].split(bug.replace).length !== 2) {
      throw new Error(`the code for "${bug.name}" is not in example/${bug.file} once`)
    }
    const { failed } = runSuite({ ...original, [bug.file]: original[bug.file].replace(bug.replace, bug.by) })
    if (failed.length > 0) caught++
    console.log(`${failed.length > 0 ? "caught" : "MISSED"}: ${bug.name}${failed.map((title) => `\n  failed: ${title}`).join("")}`)
  }
  console.log(`\n${caught} of ${bugs.length} bugs caught by the suite alone (goal: ${bugs.length} of ${bugs.length}), in ${Math.round((Date.now() - started) / 1000)} s`)
  if (caught < bugs.length) process.exitCode = 1
} finally {
  rmSync(work, { recursive: true, force: true })
}
