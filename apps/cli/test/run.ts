import { execFile } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import { patience } from "../../../vitest.shared.ts"

// One `herald` run as a child process, in a fresh data folder unless the environment names one.

const bin = resolve(import.meta.dirname, "../src/bin.ts")

export interface Run {
  readonly code: number
  readonly stdout: string
  readonly stderr: string
}

export const herald = (args: ReadonlyArray<string>, environment: Record<string, string> = {}) =>
  new Promise<Run>((done) => {
    const env = {
      ...process.env,
      // Vitest puts Vite's BASE_URL ("/") into the environment; Herald would read it as its own.
      BASE_URL: "",
      DATABASE_URL: "",
      HERALD_DATA_DIR: mkdtempSync(join(tmpdir(), "herald-cli-run-")),
      ...environment
    }
    execFile(process.execPath, [bin, ...args], { env, timeout: patience }, (error, stdout, stderr) =>
      done({ code: error === null ? 0 : typeof error.code === "number" ? error.code : 1, stdout, stderr }))
  })
