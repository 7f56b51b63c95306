import { afterAll, assert, describe, it } from "@effect/vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { createInterface } from "node:readline"
import { poll } from "../../../testing/eventually.ts"

// `herald start` as an operator runs and stops it, through the launcher: started, asked to stop by a
// signal (Ctrl-C, a service manager's SIGTERM), started again later on the same data folder.
const launcher = resolve(import.meta.dirname, "../../../herald")
const dataDir = mkdtempSync(join(tmpdir(), "herald-start-"))
// Vitest puts Vite's BASE_URL ("/") into the environment; Herald would read it as its own.
const env = { ...process.env, BASE_URL: "", HERALD_DATA_DIR: dataDir, DATABASE_URL: "", PORT: "0", HOST: "127.0.0.1" }

interface Running {
  readonly child: ChildProcess
  /** Everything printed on stdout so far, one entry a line. */
  readonly lines: Array<string>
  readonly stderr: Array<string>
}

/** Starts `herald start`; resolves once it printed the line `ready` matches. */
const start = (args: ReadonlyArray<string>, ready: RegExp) =>
  new Promise<Running>((resolveStart, reject) => {
    const child = spawn(launcher, ["start", ...args], { env, stdio: ["ignore", "pipe", "pipe"] })
    const running: Running = { child, lines: [], stderr: [] }
    createInterface({ input: child.stderr! }).on("line", (line) => running.stderr.push(line))
    createInterface({ input: child.stdout! }).on("line", (line) => {
      running.lines.push(line)
      if (ready.test(line)) resolveStart(running)
    })
    child.once("close", (code) => reject(new Error(`herald start exited with ${code}: ${[...running.lines, ...running.stderr].join("\n")}`)))
  })

/** Sends `signal`; resolves with the exit code once the process and its output have ended. */
const stop = (running: Running, signal: NodeJS.Signals) =>
  new Promise<number | string | null>((resolveStop) => {
    running.child.once("close", (code, received) => resolveStop(code ?? received))
    running.child.kill(signal)
  })

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true })
})

describe("herald start, stopped and started again", () => {
  let demoId = ""

  it("is named herald in ps and top, and SIGINT stops it with a line and exit code 0", async () => {
    const first = await start([], /^Try it: curl/)
    demoId = /\((ws_\w+)\)/.exec(first.lines.find((line) => line.startsWith("First run:")) ?? "")?.[1] ?? ""
    assert.match(demoId, /^ws_/)
    // Linux shows the name as the process's comm (at most 15 characters).
    if (existsSync(`/proc/${first.child.pid}/comm`)) {
      assert.strictEqual(readFileSync(`/proc/${first.child.pid}/comm`, "utf8").trim(), "herald")
    }
    // The first run prints the Demo owner's one-time console link beside the key.
    assert.isTrue(first.lines.some((line) => /^Console: http:\/\/localhost:\d+\/app\/link#[A-Za-z0-9_-]{43}$/.test(line)))
    // The first run shows its key; a hint how to make one would be noise here.
    assert.isFalse(first.lines.some((line) => line.includes("key create")))
    assert.strictEqual(await stop(first, "SIGINT"), 0)
    assert.strictEqual(first.lines.at(-1), "Herald stopped.")
    // The data folder is its user's alone (issue 28): every folder in it is owner-only, and so is every file
    // Herald writes itself. PGlite sets its own files' modes (666) whatever the umask; the folders keep others out.
    const open = readdirSync(dataDir, { recursive: true, withFileTypes: true })
      .map((entry) => ({ path: join(entry.parentPath, entry.name), folder: entry.isDirectory() }))
      .filter((entry) => entry.folder || !entry.path.includes("/pgdata/"))
      .filter((entry) => (statSync(entry.path).mode & 0o077) !== 0)
      .map((entry) => entry.path)
    assert.deepStrictEqual(open, [])
  })

  it("a later start says how to make a key for the Demo workspace; SIGTERM stops it with exit code 0", async () => {
    const later = await start([], /^\s+MCP:/)
    // The hint is printed with the addresses, right after them.
    await poll(async () => later.lines, (lines) => lines.some((line) => line.includes("login-link")))
    assert.include(later.lines.join("\n"), `./herald key create --workspace ${demoId}`)
    // And how to get a sign-in link to the console (the first run's link was shown once).
    assert.include(later.lines.join("\n"), "Console: ./herald member login-link --workspace <id> --email <e-mail>")
    assert.isFalse(later.lines.some((line) => line.startsWith("First run:")))
    assert.strictEqual(await stop(later, "SIGTERM"), 0)
    assert.strictEqual(later.lines.at(-1), "Herald stopped.")
  })

  it("with --json, stdout stays one document: the stop is logged on stderr, exit code 0", async () => {
    const running = await start(["--json"], /^\{/)
    assert.strictEqual(await stop(running, "SIGINT"), 0)
    assert.strictEqual(running.lines.length, 1)
    assert.strictEqual(JSON.parse(running.lines[0]!).firstRun, null)
    assert.strictEqual(JSON.parse(running.lines[0]!).consoleLink, null)
    assert.isTrue(running.stderr.some((line) => line.includes(`message="Herald stopped"`)), running.stderr.join("\n"))
  })
})
