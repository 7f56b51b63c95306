import { afterAll, assert, describe, it } from "@effect/vitest"
import { type ChildProcess, spawn } from "node:child_process"
import { rmSync } from "node:fs"
import { resolve } from "node:path"
import { createInterface } from "node:readline"
import { migratedDataFolder } from "./dataFolder.ts"
import { herald } from "./run.ts"

// HERALD_LOG_FORMAT=json: a log collector reads every line herald writes to stderr as one JSON object;
// the default stays logfmt. A value it does not know stops herald with the setting's name before it starts.

const bin = resolve(import.meta.dirname, "../src/bin.ts")
const dataDir = await migratedDataFolder("herald-log-format-")
const env = { ...process.env, BASE_URL: "", HERALD_DATA_DIR: dataDir, DATABASE_URL: "", PORT: "0", HOST: "127.0.0.1" }

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true })
})

/** Runs `herald start --json` until it is ready, then stops it; resolves with its stderr lines. */
const startAndStop = (format: string) =>
  new Promise<{ readonly code: number | null; readonly stderr: ReadonlyArray<string> }>((done, fail) => {
    const child: ChildProcess = spawn(process.execPath, [bin, "start", "--json"], {
      env: { ...env, HERALD_LOG_FORMAT: format },
      stdio: ["ignore", "pipe", "pipe"]
    })
    const stderr: Array<string> = []
    let ready = false
    createInterface({ input: child.stderr! }).on("line", (line) => stderr.push(line))
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line.startsWith("{") && !ready) {
        ready = true
        child.kill("SIGTERM")
      }
    })
    child.once("close", (code) => ready ? done({ code, stderr }) : fail(new Error(`herald start exited with ${code}: ${stderr.join("\n")}`)))
  })

describe("HERALD_LOG_FORMAT", () => {
  it("json: every stderr line of herald start is one JSON object with a timestamp, a level and a message", async () => {
    const { code, stderr } = await startAndStop("json")
    assert.strictEqual(code, 0)
    assert.isAbove(stderr.length, 0)
    for (const line of stderr) {
      const entry = JSON.parse(line)
      assert.isString(entry.level, line)
      assert.isDefined(entry.message, line)
      assert.isFalse(Number.isNaN(Date.parse(entry.timestamp)), line)
      assert.isObject(entry.annotations, line)
    }
    assert.isTrue(stderr.some((line) => JSON.parse(line).message === "Herald stopped"), stderr.join("\n"))
  })

  it("text (the default): logfmt lines, not JSON", async () => {
    const { code, stderr } = await startAndStop("text")
    assert.strictEqual(code, 0)
    assert.isTrue(stderr.some((line) => line.includes(`message="Herald stopped"`)), stderr.join("\n"))
    assert.isFalse(stderr.some((line) => line.startsWith("{")), stderr.join("\n"))
  })

  it("an unknown format stops herald with the setting's name, in the error shape with --json, exit code 1", async () => {
    const run = await herald(["start", "--json"], { HERALD_LOG_FORMAT: "yaml", HERALD_DATA_DIR: dataDir })
    assert.strictEqual(run.code, 1, run.stderr)
    const document = JSON.parse(run.stdout)
    assert.strictEqual(document.error.code, "invalid")
    assert.include(document.error.message, "HERALD_LOG_FORMAT")
    assert.include(document.error.message, "text or json")
  })
})
