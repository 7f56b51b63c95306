// bench/suite: the README's test command, run as a newcomer runs it, with the machine kept busy beside it (issue
// 29). It starts `--load` CPU-bound processes (2 by default: on a 2-core machine, every core is wanted twice),
// runs `npx -y pnpm@12.21.0 install && npx -y pnpm@12.21.0 test` in a shell of its own (the system's PATH and
// none of pnpm's variables), and prints the wall time, the run's CPU, the machine's load average while it
// ran, the counts (a test whose setup failed counts as failed, testing/TestsNotRun.ts), each failed test and
// the exit code.
//
//   pnpm bench:suite                     # this checkout as it is, two CPU-bound processes beside
//   pnpm bench:suite --load 0            # a quiet run
//   pnpm bench:suite --clone             # a fresh `git clone` of HEAD (committed work only) in a temp folder
//   pnpm bench:suite --files apps/server/test/Health.test.ts --files packages/domain   # `pnpm test <files>`
//
// The goal (issue 29): the same counts loaded and quiet, and under 10 minutes quiet on 2 cores.
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { availableParallelism, loadavg } from "node:os"
import { delimiter, join, resolve } from "node:path"
import { parseArgs } from "node:util"
import { closingLine, readCounts } from "../../testing/closingLine.ts"
import { children, revision, runFolder } from "../harness.ts"

const { values: flags } = parseArgs({
  options: {
    load: { type: "string", default: "2" },
    clone: { type: "boolean", default: false },
    files: { type: "string", multiple: true, default: [] }
  }
})
const load = Number(flags.load)
if (!Number.isInteger(load) || load < 0) throw new Error("--load: a whole number of CPU-bound processes (0 for a quiet run)")

const root = resolve(import.meta.dirname, "../..")
const folder = runFolder("suite")
const report = join(folder, "report.json")

const checkout = flags.clone ? join(folder, "herald") : root
if (flags.clone) execFileSync("git", ["clone", "--quiet", root, checkout], { stdio: "inherit" })
const head = () => execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" }).trim()
const quote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`
const command = "npx -y pnpm@12.21.0 install && npx -y pnpm@12.21.0 test" +
  flags.files.map((file) => ` ${quote(file)}`).join("")

// A shell as a newcomer opens it: `pnpm bench:suite` puts node_modules/.bin first on PATH (Node.js 24, where
// the README asks only for the system's Node.js and npx) and the script's own npm_* variables in the
// environment. Where packages are kept (`npm_config_store_dir` and the like, which CI sets) stays.
const shellEnvironment = () => {
  const env: Record<string, string | undefined> = { ...process.env, HERALD_TEST_REPORT: report }
  for (const name of Object.keys(env)) {
    const scripts = /^(npm_|pnpm_|PNPM_)/.test(name) && !/_(store|cache)_dir$/.test(name)
    if (scripts || name === "INIT_CWD" || name === "NODE") delete env[name]
  }
  env["PATH"] = (process.env["PATH"] ?? "").split(delimiter).filter((entry) => !entry.includes("node_modules")).join(delimiter)
  return env
}

/** CPU seconds of this process's waited-for children and theirs: the test run's whole tree once it has exited. */
const childrenCpu = () => {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ")
  return (Number(fields[13]) + Number(fields[14])) / 100
}

for (let i = 0; i < load; i++) {
  const burner = spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" })
  children.add(burner)
}

const samples: Array<number> = [loadavg()[0]!]
const sampler = setInterval(() => samples.push(loadavg()[0]!), 5_000)
const cpuBefore = childrenCpu()
const began = performance.now()
// Its own process group, so that a bench stopped with ^C takes the whole run (pnpm, vitest, its workers and
// their `herald` processes) with it.
const run: ChildProcess = spawn("bash", ["-c", command], { cwd: checkout, env: shellEnvironment(), stdio: "inherit", detached: true })
const stopRun = () => {
  if (run.exitCode === null && run.signalCode === null && run.pid !== undefined) process.kill(-run.pid, "SIGKILL")
}
// Before the harness's own clean-up, which removes the folder the run may still be working in.
process.prependListener("exit", stopRun)
const exitCode = await new Promise<number>((done) => run.once("exit", (code, signal) => done(code ?? (signal === null ? 1 : 128))))
const wall = (performance.now() - began) / 1000
const cpu = childrenCpu() - cpuBefore
clearInterval(sampler)
for (const burner of children) burner.kill("SIGKILL")

const sorted = [...samples].sort((a, b) => a - b)
const duration = (seconds: number) => `${Math.floor(Math.round(seconds) / 60)} min ${Math.round(seconds) % 60} s`
console.log("")
console.log(
  `bench:suite: \`${command}\` in ${flags.clone ? `a fresh clone of ${head()}` : `${root} (${revision()})`}, ` +
    `${load === 0 ? "quiet" : `${load} CPU-bound ${load === 1 ? "process" : "processes"} beside it`}, ${availableParallelism()} cores`
)
console.log(`wall time: ${duration(wall)} (${wall.toFixed(1)} s); CPU of the run: ${cpu.toFixed(0)} s (${(cpu / wall).toFixed(2)} cores on average)`)
console.log(
  `load average (1 min) during the run: min ${sorted[0]!.toFixed(1)}, median ${sorted[sorted.length >> 1]!.toFixed(1)}, ` +
    `max ${sorted.at(-1)!.toFixed(1)} (${sorted.length} ${sorted.length === 1 ? "sample" : "samples"}: at the start, then one each 5 s)`
)
if (existsSync(report)) {
  const counts = readCounts(report)
  console.log(`tests: ${closingLine(counts)}`)
  console.log(`  passed ${counts.passed}, failed ${counts.failed}, skipped ${counts.skipped}, did not run (setup failed, among the failed) ${counts.didNotRun}`)
  for (const failure of counts.failures) console.log(`  failed: ${failure.name} (${failure.file})`)
} else {
  console.log("tests: no report was written (the install failed, or vitest did not get to its end)")
}
console.log(`exit code: ${exitCode}`)
process.exitCode = exitCode
